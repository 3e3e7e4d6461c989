import type { HelperStatus } from '@homesitter/contract';
import { HELPER_ERROR_CODES } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { Spinner } from '../../../shared/ui/Spinner';
import type { FlowAction, FlowState, Submitted } from '../flow';
import { isHelperError, isHelperGone } from '../helperClient';
import { HelperSignIn, helperSignedInAs } from '../screens/HelperSignIn';
import { helperCheckKey, useConfigureCameras } from '../useHelper';
import { SummaryNamesForm, useSummaryNames } from './SummaryNames';

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
  const queryClient = useQueryClient();
  const configure = useConfigureCameras();
  const names = useSummaryNames(state, dispatch);
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const signedIn = helperSignedInAs(status, email);

  const submit = () => {
    setTried(true);
    setFailure(null);
    const cameras = names.chosen();
    if (!cameras) return;
    configure.mutate(
      {
        cameras: cameras.map(({ device, name, connection }) => ({
          device_id: device.id,
          name,
          site_uuid: state.siteUuid,
          connection,
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
                connection,
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
        intro={t('summary.intro')}
        tried={tried}
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
          {t('summary.configure', { count: names.devices.length })}
        </Button>
      </div>
    </Card>
  );
}
