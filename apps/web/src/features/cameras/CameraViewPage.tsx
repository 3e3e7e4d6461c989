import { MESSAGES } from '@homesitter/contract/runtime';
import { ArrowLeft, Maximize, Minimize } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { Alert } from '../../shared/ui/Alert';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { cn } from '../../shared/ui/cn';
import { useCameraDetail } from './api';
import { NoActivity } from './NoActivity';
import { StatusBadge } from './StatusBadge';

/**
 * Spec §2 camera view, fullscreen and preview (`/camera-preview?name=`): the camera's picture on its own.
 * Until the camera has uploaded, it says so rather than showing a fake stream.
 */
export default function CameraViewPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  const name = params.name ?? search.get('name') ?? '';
  const fullscreen = pathname.endsWith('/fullscreen');
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const camera = useCameraDetail(name);
  const base = `/cameras/${encodeURIComponent(name)}`;

  if (!name) return <Alert tone="info">{t('view.noCamera')}</Alert>;
  if (camera.isPending) return <PageSpinner />;

  return (
    <div className={cn('mx-auto w-full p-4 md:p-6', fullscreen ? 'max-w-none' : 'max-w-4xl')}>
      <header className="mb-4 flex items-center gap-3">
        <Link
          to={base}
          aria-label={t('view.back')}
          className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-xl font-semibold text-white">
          {camera.data?.name ?? name}
        </h1>
        {camera.data ? <StatusBadge status={camera.data.configuration_status} /> : null}
        <Link
          to={fullscreen ? `${base}/view` : `${base}/fullscreen`}
          aria-label={fullscreen ? t('view.exitFullscreen') : t('view.fullscreen')}
          className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          {fullscreen ? (
            <Minimize className="size-5" aria-hidden="true" />
          ) : (
            <Maximize className="size-5" aria-hidden="true" />
          )}
        </Link>
      </header>
      {camera.data ? (
        <NoActivity kind="live" lastActivity={camera.data.last_activity_date_time_utc} />
      ) : (
        <Alert>{errorText(tr, camera.error, MESSAGES.loadCamerasFailed)}</Alert>
      )}
    </div>
  );
}
