import { CAMERA_CONFIGURATION_S } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { camerasKey } from '../../cameras/api';
import { useCamerasRealtime } from '../../cameras/useCamerasRealtime';
import type { FlowAction, FlowState } from '../flow';
import { isHelperGone } from '../helperClient';
import { useHelperJobs } from '../useHelper';
import { JobRow, type JobView } from './JobRow';

/**
 * Step 5: the helper's jobs, read every second until each camera is configured or failed. The cameras list
 * follows along (realtime, and a refresh whenever a camera is ready), so "Done" lands on a current list.
 */
export function ProgressStep({
  state,
  dispatch,
  onAddMore,
  onDone,
}: {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
  onAddMore: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('discovery');
  const queryClient = useQueryClient();
  useCamerasRealtime();
  const jobs = useHelperJobs(state.submitted.map((s) => s.jobId));

  const views = state.submitted.map((submitted) => {
    const job = jobs.data?.jobs.find((j) => j.id === submitted.jobId);
    const status: JobView = job ? job.status : jobs.data ? 'lost' : 'pending';
    return { submitted, job, status };
  });
  const ready = views.filter((v) => v.status === 'configured').length;
  const settled = views.every(
    (v) => v.status === 'configured' || v.status === 'failed' || v.status === 'lost',
  );

  useEffect(() => {
    if (jobs.error && isHelperGone(jobs.error)) dispatch({ type: 'helperLost' });
  }, [jobs.error, dispatch]);
  useEffect(() => {
    if (ready > 0) void queryClient.invalidateQueries({ queryKey: camerasKey });
  }, [ready, queryClient]);

  return (
    <Card className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-white">{t('progress.title')}</h2>
        <p className="text-sm text-slate-300">{t('progress.intro', { seconds: CAMERA_CONFIGURATION_S })}</p>
        <p role="status" className="text-sm font-medium text-slate-200" data-testid="progress-summary">
          {t('progress.summary', { ready, count: views.length })}
        </p>
      </div>
      <ul className="flex flex-col gap-3" aria-label={t('progress.listLabel')}>
        {views.map((v) => (
          <JobRow
            key={v.submitted.deviceId}
            submitted={v.submitted}
            job={v.job}
            status={v.status}
            siteUuid={state.siteUuid}
            dispatch={dispatch}
          />
        ))}
      </ul>
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="ghost" onClick={onAddMore}>
          {t('progress.addMore')}
        </Button>
        <Button variant={settled ? 'primary' : 'secondary'} onClick={onDone}>
          {t('progress.done')}
        </Button>
      </div>
    </Card>
  );
}
