import type { HelperStatus } from '@homesitter/contract';
import { CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useEffect, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { Spinner } from '../../../shared/ui/Spinner';
import { TextField } from '../../../shared/ui/TextField';
import { useCameras, useSites } from '../../cameras/api';
import { cameraNameProblem } from '../../cameras/cameraName';
import { SiteSelect } from '../../cameras/SiteSelect';
import { connectionFor, selectedDevices, type FlowAction, type FlowState, type Submitted } from '../flow';
import { DeviceFacts } from './DeviceFacts';
import { HELPER_ERROR_CODES } from '@homesitter/contract/runtime';
import { isHelperError, isHelperGone } from '../helperClient';
import { HelperSignIn, helperSignedInAs } from '../screens/HelperSignIn';
import { helperCheckKey, useConfigureCameras } from '../useHelper';

/**
 * Step 4: a name for each camera (prefilled from what it announces, unique, checked like every camera
 * name), the property they belong to, then Configure: the helper sets them up and registers them.
 */
export function SummaryStep({
  state,
  dispatch,
  status,
  email,
  onBack,
  onConfigured,
}: {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
  status: HelperStatus;
  email: string | null | undefined;
  onBack: () => void;
  onConfigured: () => void;
}) {
  const { t } = useTranslation('discovery');
  const { t: tc } = useTranslation('cameras');
  const queryClient = useQueryClient();
  const cameras = useCameras();
  const sites = useSites();
  const configure = useConfigureCameras();
  const [tried, setTried] = useState(false);
  const [touched, setTouched] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const devices = selectedDevices(state);
  const existing = (cameras.data ?? []).map((c) => c.name);
  const existingKey = existing.join('\n');

  // First names avoid the cameras already there; without that list (it failed) they avoid each other only.
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
  const signedIn = helperSignedInAs(status, email);

  const submit = () => {
    setTried(true);
    setFailure(null);
    const cameras = devices.map((device) => ({
      device,
      connection: connectionFor(state, device).connection,
    }));
    if (devices.some((d) => problemOf(d.id)) || cameras.some((c) => !c.connection)) return;
    configure.mutate(
      {
        cameras: cameras.map(({ device, connection }) => ({
          device_id: device.id,
          name: nameOf(device.id).trim(),
          site_uuid: state.siteUuid,
          connection: connection!,
        })),
      },
      {
        onSuccess: (answer) => {
          const submitted: Submitted[] = [];
          for (const { device, connection } of cameras) {
            const job = answer.jobs.find((j) => j.device_id === device.id);
            if (job)
              submitted.push({
                deviceId: device.id,
                jobId: job.id,
                name: job.camera_name,
                connection: connection!,
              });
          }
          // One transition: the progress step and the emptied selection arrive together, so the summary is
          // never shown without a selection (which would send the flow back to the scan).
          startTransition(() => {
            dispatch({ type: 'submitted', cameras: submitted });
            onConfigured();
          });
        },
        onError: (error) => {
          if (isHelperGone(error)) dispatch({ type: 'helperLost' });
          else if (isHelperError(error) && error.code === HELPER_ERROR_CODES.notSignedIn) {
            void queryClient.invalidateQueries({ queryKey: helperCheckKey });
          } else setFailure(error.message);
        },
      },
    );
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
        <p className="text-sm text-slate-300">{t('summary.intro')}</p>
      </div>
      <ul className="flex flex-col gap-3" aria-label={t('summary.listLabel')}>
        {devices.map((device) => {
          const problem = problemOf(device.id);
          const show = tried || touched.includes(device.id);
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
                onChange={(e) => {
                  dispatch({ type: 'setName', id: device.id, name: e.target.value });
                  setTouched((ids) => (ids.includes(device.id) ? ids : [...ids, device.id]));
                }}
                error={show && problem ? tc(`nameErrors.${problem}`) : null}
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
      {signedIn ? null : (
        <div className="flex flex-col gap-2">
          <Alert tone="info">{t('helper.signInToConfigure')}</Alert>
          <HelperSignIn status={status} email={email} />
        </div>
      )}
      {failure ? <Alert>{t('summary.failed', { message: failure })}</Alert> : null}
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="ghost" onClick={onBack}>
          {t('back')}
        </Button>
        <Button onClick={submit} busy={configure.isPending} disabled={!signedIn}>
          {t('summary.configure', { count: devices.length })}
        </Button>
      </div>
    </Card>
  );
}
