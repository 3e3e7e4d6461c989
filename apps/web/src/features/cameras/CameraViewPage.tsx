import { MESSAGES } from '@homesitter/contract/runtime';
import { ArrowLeft, Maximize, Minimize } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { Alert } from '../../shared/ui/Alert';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { useCameraDetail } from './api';
import { CameraFullscreen } from './live/CameraFullscreen';
import { CameraLiveView } from './live/CameraLiveView';
import { StatusBadge } from './StatusBadge';
import { useCamerasRealtime } from './useCamerasRealtime';

const iconLink =
  'rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400';

/**
 * docs/product.md §2 camera view, fullscreen and preview (`/camera-preview?name=`): the camera's live picture on its
 * own (an upload camera's latest snapshot), fullscreen on the fullscreen route.
 */
export default function CameraViewPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  const name = params.name ?? search.get('name') ?? '';
  const fullscreen = pathname.endsWith('/fullscreen');
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const camera = useCameraDetail(name, { followConfiguration: true });
  useCamerasRealtime();
  const base = `/cameras/${encodeURIComponent(name)}`;

  if (!name) return <Alert tone="info">{t('view.noCamera')}</Alert>;
  if (camera.isPending) return <PageSpinner />;
  if (fullscreen && camera.data) return <CameraFullscreen camera={camera.data} viewPath={`${base}/view`} />;

  return (
    <div className="mx-auto w-full max-w-4xl p-4 md:p-6">
      <header className="mb-4 flex items-center gap-3">
        <Link to={base} aria-label={t('view.back')} className={iconLink}>
          <ArrowLeft className="size-5" aria-hidden="true" />
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-xl font-semibold text-white">
          {camera.data?.name ?? name}
        </h1>
        {camera.data ? <StatusBadge camera={camera.data} /> : null}
        <Link
          to={fullscreen ? `${base}/view` : `${base}/fullscreen`}
          aria-label={fullscreen ? t('view.exitFullscreen') : t('view.fullscreen')}
          className={iconLink}
        >
          {fullscreen ? (
            <Minimize className="size-5" aria-hidden="true" />
          ) : (
            <Maximize className="size-5" aria-hidden="true" />
          )}
        </Link>
      </header>
      {camera.data ? (
        <CameraLiveView camera={camera.data} />
      ) : (
        <Alert>{errorText(tr, camera.error, MESSAGES.loadCamerasFailed)}</Alert>
      )}
    </div>
  );
}
