import { CameraOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useProfile } from '../user/profile';
import { formatDateTime } from './format';

/**
 * The honest state of a camera's views until it has uploaded something: no snapshot, no clip, and where to
 * point the camera (camera setup).
 */
export function NoActivity({ kind, lastActivity }: { kind: 'live' | 'past'; lastActivity: string | null }) {
  const { t, i18n } = useTranslation('cameras');
  const timeZone = useProfile().data?.timezone;
  return (
    <div className="flex aspect-video w-full flex-col items-center justify-center gap-3 rounded-2xl bg-slate-950 p-6 text-center ring-1 ring-slate-800">
      <CameraOff className="size-10 text-slate-500" aria-hidden="true" />
      <p className="font-medium text-slate-200">
        {lastActivity
          ? t('card.lastActivity', { time: formatDateTime(lastActivity, i18n.language, timeZone) })
          : t('card.noActivity')}
      </p>
      <p className="max-w-sm text-sm text-slate-400">
        {t(kind === 'live' ? 'detail.liveEmpty' : 'detail.pastEmpty')}
      </p>
      <Link to="/settings/camera-setup" className="text-sm text-brand-400 underline-offset-4 hover:underline">
        {t('cameraSetup')}
      </Link>
    </div>
  );
}
