import type { Activity } from '@homesitter/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { useProfile } from '../user/profile';
import { useCameraActivities, useLiveActivities } from './activities';
import { ActivityItem } from './ActivityItem';
import { ActivityViewer } from './ActivityViewer';
import { formatDateTime } from './format';
import { NoActivity } from './NoActivity';

function PastSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} aria-busy="true" className="flex flex-col gap-3">
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex gap-3 rounded-xl bg-slate-900 p-2 ring-1 ring-slate-800">
          <div className="aspect-video w-36 shrink-0 animate-pulse rounded-lg bg-slate-800 sm:w-44" />
          <div className="flex flex-1 flex-col gap-2 py-1">
            <div className="h-4 w-1/3 animate-pulse rounded bg-slate-800" />
            <div className="h-4 w-2/3 animate-pulse rounded bg-slate-800" />
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * A camera's past events (the "Past" view of its detail screen), newest first, in the user's time zone.
 * More load on request; a new event appears by itself.
 */
export function PastActivities({
  cameraName,
  lastActivity,
}: {
  cameraName: string;
  lastActivity: string | null;
}) {
  const { t, i18n } = useTranslation('cameras');
  const timeZone = useProfile().data?.timezone;
  const activities = useCameraActivities(cameraName);
  useLiveActivities(cameraName);
  // By id, so the viewer shows the event as the latest list has it (a snapshot may join it meanwhile).
  const [openId, setOpenId] = useState<string | null>(null);
  const when = (a: Activity) => formatDateTime(a.date_time_utc, i18n.language, timeZone);

  if (activities.isPending) return <PastSkeleton label={t('past.loading')} />;
  if (activities.isError && !activities.data) {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert>{t('past.failed')}</Alert>
        <Button variant="secondary" onClick={() => void activities.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  const items = activities.data;
  if (items.length === 0) return <NoActivity kind="past" lastActivity={lastActivity} />;
  const open = items.find((a) => a.activity_uuid === openId);

  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={t('past.listLabel', { name: cameraName })} className="flex flex-col gap-3">
        {items.map((activity) => (
          <li key={activity.activity_uuid}>
            <ActivityItem
              activity={activity}
              when={when(activity)}
              onOpen={() => setOpenId(activity.activity_uuid)}
            />
          </li>
        ))}
      </ul>
      {activities.isFetchNextPageError ? <Alert>{t('past.loadMoreFailed')}</Alert> : null}
      {activities.hasNextPage ? (
        <Button
          variant="secondary"
          className="self-center"
          busy={activities.isFetchingNextPage}
          onClick={() => void activities.fetchNextPage()}
        >
          {t('past.loadMore')}
        </Button>
      ) : (
        <p className="text-center text-sm text-slate-400">{t('past.end')}</p>
      )}
      {open ? <ActivityViewer activity={open} when={when(open)} onClose={() => setOpenId(null)} /> : null}
    </div>
  );
}
