import { startTransition, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/errors';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { Spinner } from '../../../shared/ui/Spinner';
import { useAddCamera } from '../../cameras/api';
import type { FlowAction, FlowState, Submitted } from '../flow';
import { SummaryNamesForm, useSummaryNames } from '../steps/SummaryNames';

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
  const add = useAddCamera();
  const names = useSummaryNames(state, dispatch);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    setTried(true);
    setFailure(null);
    const chosen = names.chosen();
    if (!chosen) return;
    setBusy(true);
    const submitted: Submitted[] = [];
    // One at a time, so a refusal (a name taken meanwhile) stops before the rest and names the camera.
    for (const { device, name, connection } of chosen) {
      try {
        const camera = await add.mutateAsync({ name, site_uuid: state.siteUuid, connection });
        // The server's camera name is what its configuration is followed by.
        submitted.push({
          deviceId: device.id,
          jobId: camera.name,
          name: camera.name,
          connection,
        });
      } catch (error) {
        setFailure(
          t('phoneFlow.summary.failed', {
            name,
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

  if (!names.ready) {
    return (
      <Card className="flex justify-center">
        <Spinner />
      </Card>
    );
  }

  return (
    <Card className="flex flex-col gap-5">
      <SummaryNamesForm
        state={state}
        dispatch={dispatch}
        names={names}
        intro={t('phoneFlow.summary.intro')}
        tried={tried}
      />
      {failure ? <Alert>{failure}</Alert> : null}
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="ghost" onClick={onBack}>
          {t('back')}
        </Button>
        <Button onClick={() => void submit()} busy={busy}>
          {t('summary.configure', { count: names.devices.length })}
        </Button>
      </div>
    </Card>
  );
}
