import { CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import { startTransition, useEffect, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/errors';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { Spinner } from '../../../shared/ui/Spinner';
import { TextField } from '../../../shared/ui/TextField';
import { useAddCamera, useCameras, useSites } from '../../cameras/api';
import { cameraNameProblem } from '../../cameras/cameraName';
import { SiteSelect } from '../../cameras/SiteSelect';
import { connectionFor, selectedDevices, type FlowAction, type FlowState, type Submitted } from '../flow';
import { DeviceFacts } from '../steps/DeviceFacts';

/**
 * Step 4 on the phone: the same names and property as the helper's summary, then each camera is added to
 * the server as a stream camera (`add-camera` with its connection), which the server then pulls and
 * configures itself, exactly as a camera added by hand.
 */
export function PhoneSummaryStep({
  state,
  dispatch,
  onBack,
  onConfigured,
}: {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
  onBack: () => void;
  onConfigured: () => void;
}) {
  const { t } = useTranslation('discovery');
  const { t: tc } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const cameras = useCameras();
  const sites = useSites();
  const add = useAddCamera();
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const devices = selectedDevices(state);
  const existing = (cameras.data ?? []).map((c) => c.name);
  const existingKey = existing.join('\n');

  const camerasKnown = cameras.data !== undefined || cameras.isError;
  useEffect(() => {
    if (camerasKnown)
      dispatch({ type: 'prepareNames', existing: existingKey ? existingKey.split('\n') : [] });
  }, [camerasKnown, existingKey, dispatch]);
  const namesReady = devices.every((device) => state.names[device.id] !== undefined);

  const nameOf = (id: string) => state.names[id] ?? '';
  const problemOf = (id: string) =>
    cameraNameProblem(nameOf(id), [
      ...existing,
      ...devices.filter((d) => d.id !== id).map((d) => nameOf(d.id).trim()),
    ]);

  const submit = async () => {
    setTried(true);
    setFailure(null);
    const chosen = devices.map((device) => ({ device, connection: connectionFor(state, device).connection }));
    if (devices.some((d) => problemOf(d.id)) || chosen.some((c) => !c.connection)) return;
    setBusy(true);
    const submitted: Submitted[] = [];
    // One at a time, so a refusal (a name taken meanwhile) stops before the rest and names the camera.
    for (const { device, connection } of chosen) {
      try {
        const camera = await add.mutateAsync({
          name: nameOf(device.id).trim(),
          site_uuid: state.siteUuid,
          connection: connection!,
        });
        // The server's camera name is what its configuration is followed by.
        submitted.push({
          deviceId: device.id,
          jobId: camera.name,
          name: camera.name,
          connection: connection!,
        });
      } catch (error) {
        setFailure(
          t('phoneFlow.summary.failed', {
            name: nameOf(device.id).trim(),
            message: errorText(tr, error, tc('add.failed')),
          }),
        );
        break;
      }
    }
    setBusy(false);
    if (submitted.length === 0) return;
    startTransition(() => {
      dispatch({ type: 'submitted', cameras: submitted });
      if (submitted.length === chosen.length) onConfigured();
    });
  };

  if (!namesReady) {
    return (
      <Card className="flex justify-center">
        <Spinner />
      </Card>
    );
  }

  return (
    <Card className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-white">{t('summary.title')}</h2>
        <p className="text-sm text-slate-300">{t('phoneFlow.summary.intro')}</p>
      </div>
      <ul className="flex flex-col gap-3" aria-label={t('summary.listLabel')}>
        {devices.map((device) => {
          const problem = problemOf(device.id);
          return (
            <li
              key={device.id}
              data-testid="summary-camera"
              data-address={device.address}
              className="flex flex-col gap-2 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800"
            >
              <TextField
                label={t('summary.nameLabel', { address: device.address })}
                value={nameOf(device.id)}
                maxLength={CAMERA_NAME_MAX + 1}
                autoComplete="off"
                onChange={(e) => dispatch({ type: 'setName', id: device.id, name: e.target.value })}
                error={(tried || nameOf(device.id) !== '') && problem ? tc(`nameErrors.${problem}`) : null}
              />
              <DeviceFacts device={device} state={state} />
            </li>
          );
        })}
      </ul>
      <SiteSelect
        sites={sites.data ?? []}
        value={state.siteUuid}
        onChange={(siteUuid) => dispatch({ type: 'setSite', siteUuid })}
      />
      {failure ? <Alert>{failure}</Alert> : null}
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="ghost" onClick={onBack}>
          {t('back')}
        </Button>
        <Button onClick={() => void submit()} busy={busy}>
          {t('summary.configure', { count: devices.length })}
        </Button>
      </div>
    </Card>
  );
}
