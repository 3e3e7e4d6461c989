import type { CameraConfigurationErrorCode } from '@homesitter/contract/runtime';
import { CAMERA_CONFIGURATION_S } from '@homesitter/contract/runtime';
import { CheckCircle2, Monitor, Upload, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorText } from '../../../shared/lib/errors';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { Spinner } from '../../../shared/ui/Spinner';
import { useCameraDetail, useConfigureCamera } from '../../cameras/api';
import { configurationErrorText } from '../../cameras/add/configurationError';
import { useCamerasRealtime } from '../../cameras/useCamerasRealtime';
import type { FlowState, Submitted } from '../flow';
import { HelperDownloads } from '../screens/HelperDownloads';

/** Failures that mean the server cannot get to the camera at all (it sits behind the home router). */
const OUT_OF_REACH: readonly CameraConfigurationErrorCode[] = [
  'unreachable',
  'timed_out',
  'network_not_allowed',
];

const linkClass =
  'text-sm text-brand-400 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400';

/**
 * The camera is on the home network but the server cannot reach it: a phone is no 24/7 bridge, so either
 * the desktop helper on a computer that stays on bridges it, or the camera uploads its events (FTP/email)
 * with the camera switched to upload and the set-up page showing its name and address.
 */
function OutOfReach({ submitted, address }: { submitted: Submitted; address: string }) {
  const { t } = useTranslation('discovery');
  const { t: tr } = useTranslation();
  const navigate = useNavigate();
  const toUpload = useConfigureCamera(submitted.name);
  const [helperShown, setHelperShown] = useState(false);

  const useUpload = () =>
    toUpload.mutate(
      { type: 'upload' },
      {
        onSuccess: () =>
          void navigate(
            `/settings/camera-setup?${new URLSearchParams({ camera: submitted.name, address }).toString()}`,
          ),
      },
    );

  return (
    <div className="flex flex-col gap-3" data-testid="out-of-reach">
      <p className="text-sm text-slate-300">{t('phoneFlow.progress.outOfReach')}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => setHelperShown((shown) => !shown)}
          aria-expanded={helperShown}
        >
          <Monitor className="size-4" aria-hidden="true" />
          {t('phoneFlow.progress.viaHelper')}
        </Button>
        <Button variant="secondary" onClick={useUpload} busy={toUpload.isPending}>
          <Upload className="size-4" aria-hidden="true" />
          {t('phoneFlow.progress.viaUpload')}
        </Button>
      </div>
      {toUpload.error ? (
        <Alert>{errorText(tr, toUpload.error, t('phoneFlow.progress.uploadFailed'))}</Alert>
      ) : null}
      {helperShown ? (
        <div className="flex flex-col gap-2 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800">
          <p className="text-sm text-slate-300">
            {t('phoneFlow.progress.helperText', { name: submitted.name })}
          </p>
          <HelperDownloads />
        </div>
      ) : null}
    </div>
  );
}

/** One camera the server is configuring: its state as the server tells it, and what to do if it failed. */
function PhoneCameraRow({ submitted, address }: { submitted: Submitted; address: string }) {
  const { t } = useTranslation('discovery');
  const { t: tc } = useTranslation('cameras');
  const camera = useCameraDetail(submitted.name, { followConfiguration: true });
  const status = camera.data?.configuration_status ?? 'pending';
  const code = camera.data?.configuration_error_code ?? null;
  const outOfReach = status === 'failed' && code !== null && OUT_OF_REACH.includes(code);

  return (
    <li
      data-testid="phone-camera"
      data-camera={submitted.name}
      data-status={status}
      className="flex flex-col gap-3 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800"
    >
      <div className="flex items-center gap-2">
        {status === 'configured' ? (
          <CheckCircle2 className="size-5 text-emerald-400" aria-hidden="true" />
        ) : status === 'failed' ? (
          <XCircle className="size-5 text-red-400" aria-hidden="true" />
        ) : (
          <Spinner size="sm" className="text-brand-400" />
        )}
        <span className="font-medium text-white">{submitted.name}</span>
        <span className="text-xs text-slate-400">{address}</span>
      </div>
      <p className="text-sm text-slate-300">
        {status === 'failed' && camera.data
          ? configurationErrorText(tc, camera.data)
          : t(`phoneFlow.progress.status.${status}`)}
      </p>
      {status === 'configured' ? (
        <Link to={`/cameras/${encodeURIComponent(submitted.name)}`} className={linkClass}>
          {t('phoneFlow.progress.open', { name: submitted.name })}
        </Link>
      ) : null}
      {outOfReach ? <OutOfReach submitted={submitted} address={address} /> : null}
      {status === 'failed' && !outOfReach ? (
        <Link
          to={`/cameras/add?${new URLSearchParams({ type: 'stream', camera: submitted.name }).toString()}`}
          className={linkClass}
        >
          {t('phoneFlow.progress.fix')}
        </Link>
      ) : null}
    </li>
  );
}

/** Step 5 on the phone: the server configures each camera itself (about 30 s), followed live. */
export function PhoneProgressStep({
  state,
  onAddMore,
  onDone,
}: {
  state: FlowState;
  onAddMore: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('discovery');
  useCamerasRealtime();
  const addressOf = (deviceId: string) => state.scan.devices.find((d) => d.id === deviceId)?.address ?? '';

  return (
    <Card className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-white">{t('progress.title')}</h2>
        <p className="text-sm text-slate-300">
          {t('phoneFlow.progress.intro', { seconds: CAMERA_CONFIGURATION_S })}
        </p>
      </div>
      <ul className="flex flex-col gap-3" aria-label={t('progress.listLabel')}>
        {state.submitted.map((submitted) => (
          <PhoneCameraRow
            key={submitted.deviceId}
            submitted={submitted}
            address={addressOf(submitted.deviceId)}
          />
        ))}
      </ul>
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="ghost" onClick={onAddMore}>
          {t('progress.addMore')}
        </Button>
        <Button onClick={onDone}>{t('progress.done')}</Button>
      </div>
    </Card>
  );
}
