import type { Camera } from '@homesitter/contract';
import { CAMERA_CONFIGURATION_S } from '@homesitter/contract/runtime';
import { CheckCircle2, Pencil, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../shared/lib/errors';
import { notify } from '../../../shared/lib/toast';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Spinner } from '../../../shared/ui/Spinner';
import { useConfigureCamera } from '../api';
import { SnapshotImage } from '../SnapshotImage';
import { configurationErrorText } from './configurationError';

type ConfigurableCamera = Pick<
  Camera,
  | 'name'
  | 'configuration_status'
  | 'configuration_error'
  | 'configuration_error_code'
  | 'snapshot_url'
  | 'snapshot_date_time_utc'
>;

const STEPS = ['connect', 'read', 'stream', 'picture'] as const;
/** Past this, the wait is longer than configuration should take: say so. */
const SLOW_AFTER_S = CAMERA_CONFIGURATION_S + 10;

function ConfiguringNotice() {
  const { t } = useTranslation('cameras');
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => s + 1), 1_000);
    return () => clearInterval(timer);
  }, []);
  const shown = Math.min(seconds, CAMERA_CONFIGURATION_S);
  return (
    <div role="status" className="flex flex-col gap-4" data-testid="configuring">
      <div className="flex items-center gap-3">
        <Spinner className="text-brand-400" />
        <p className="font-medium text-white">
          {t('configure.connecting', { seconds: CAMERA_CONFIGURATION_S })}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={t('configure.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={CAMERA_CONFIGURATION_S}
        aria-valuenow={shown}
        aria-valuetext={t('configure.elapsed', { seconds: shown, max: CAMERA_CONFIGURATION_S })}
        className="h-1.5 overflow-hidden rounded-full bg-slate-800"
      >
        <div
          className="h-full rounded-full bg-brand-500 transition-[width] duration-1000 ease-linear"
          style={{ width: `${(shown / CAMERA_CONFIGURATION_S) * 100}%` }}
        />
      </div>
      <div>
        <p className="text-sm text-slate-300">{t('configure.stepsTitle')}</p>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-400">
          {STEPS.map((step) => (
            <li key={step}>{t(`configure.steps.${step}`)}</li>
          ))}
        </ol>
      </div>
      {seconds >= SLOW_AFTER_S ? <p className="text-sm text-amber-200">{t('configure.slow')}</p> : null}
    </div>
  );
}

/**
 * A stream camera's configuration as it happens (docs/product.md §4: pending → configuring → configured | failed, about
 * 30 s): progress, then the first picture and a way to the camera, or the reason it failed with "Try again"
 * and, where the caller offers it, "Edit".
 */
export function ConfigurationProgress({
  camera,
  onEdit,
  showSuccess = true,
}: {
  camera: ConfigurableCamera;
  onEdit?: () => void;
  showSuccess?: boolean;
}) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const configure = useConfigureCamera(camera.name);
  const tryAgain = () =>
    configure.mutate(undefined, {
      onError: (error) => notify.error(errorText(tr, error, t('configure.retryFailed'))),
    });

  if (camera.configuration_status === 'failed') {
    return (
      <div className="flex flex-col gap-4" data-testid="configuration-failed">
        <Alert>
          <p className="font-medium">{t('configure.failedTitle')}</p>
          <p className="mt-1">{configurationErrorText(t, camera)}</p>
        </Alert>
        <div className="flex flex-wrap gap-2">
          <Button onClick={tryAgain} busy={configure.isPending}>
            <RefreshCw className="size-4" aria-hidden="true" />
            {t('configure.tryAgain')}
          </Button>
          {onEdit ? (
            <Button variant="secondary" onClick={onEdit}>
              <Pencil className="size-4" aria-hidden="true" />
              {t('configure.edit')}
            </Button>
          ) : null}
        </div>
      </div>
    );
  }
  if (camera.configuration_status !== 'configured') return <ConfiguringNotice />;
  if (!showSuccess) return null;
  return (
    <div className="flex flex-col gap-4" data-testid="configuration-done">
      <p role="status" className="flex items-center gap-2 font-medium text-emerald-200">
        <CheckCircle2 className="size-5" aria-hidden="true" />
        {t('configure.done', { name: camera.name })}
      </p>
      {camera.snapshot_url ? (
        <SnapshotImage
          src={camera.snapshot_url}
          eager
          alt={t('configure.firstPicture', { name: camera.name })}
          className="aspect-video w-full rounded-xl"
        />
      ) : (
        <p className="text-sm text-slate-400">{t('configure.pictureSoon')}</p>
      )}
      <Link
        to={`/cameras/${encodeURIComponent(camera.name)}`}
        className="inline-flex h-11 items-center justify-center self-start rounded-lg bg-brand-500 px-4 text-sm font-semibold text-slate-950 hover:bg-brand-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
      >
        {t('configure.openCamera')}
      </Link>
    </div>
  );
}
