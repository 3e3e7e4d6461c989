import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { api } from '../../shared/lib/api';
import { ActivityViewer } from '../cameras/ActivityViewer';
import { formatInZone } from '../../shared/lib/time';
import { useProfile } from '../user/profile';

/**
 * `/chat?activity=<uuid>`: where a tapped alert (push or Web Push) lands. The event opens large over the
 * chat; closing it leaves the chat as it was. An event that is gone (history deleted, retention) says so.
 */
export function LinkedActivity() {
  const { t, i18n } = useTranslation('chat');
  const [params, setParams] = useSearchParams();
  const activityUuid = params.get('activity');
  const timeZone = useProfile().data?.timezone;
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('activity');
        return next;
      },
      { replace: true },
    );
  const query = useQuery({
    queryKey: ['activities', 'one', activityUuid],
    enabled: Boolean(activityUuid),
    retry: false,
    queryFn: async () => {
      try {
        return (await api.call('getActivity', { params: { activity_uuid: activityUuid ?? '' } })).data;
      } catch (err) {
        toast.error(t('linkedActivity.gone'));
        close();
        throw err;
      }
    },
  });
  if (!activityUuid || !query.data) return null;
  return (
    <ActivityViewer
      activity={query.data}
      when={formatInZone(query.data.date_time_utc, { language: i18n.language, timeZone, style: 'dateTime' })}
      onClose={close}
    />
  );
}
