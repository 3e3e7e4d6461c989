import { CameraOff, EyeOff, Play, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/Button';
import { Spinner } from '../../../shared/ui/Spinner';

export type LiveOverlayKind =
  'connecting' | 'reconnecting' | 'private' | 'stopped' | 'failed' | 'unsupported' | 'blocked';

/** What lies over the picture while it is not simply playing: progress, private mode, a failure. */
export function LiveOverlay({
  kind,
  detail,
  onRetry,
  onPlay,
}: {
  kind: LiveOverlayKind;
  /** Why, in the server's words (e.g. the stream error while reconnecting). */
  detail?: string | null;
  onRetry?: () => void;
  onPlay?: () => void;
}) {
  const { t } = useTranslation('cameras');
  if (kind === 'blocked') {
    return (
      <div className="absolute inset-0 flex items-center justify-center bg-black/40">
        <button
          type="button"
          onClick={onPlay}
          aria-label={t('live.play')}
          className="flex size-16 items-center justify-center rounded-full bg-white/90 text-slate-950 hover:bg-white focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <Play className="size-7" aria-hidden="true" />
        </button>
      </div>
    );
  }
  const busy = kind === 'connecting' || kind === 'reconnecting';
  const Icon = kind === 'private' ? EyeOff : kind === 'stopped' ? CameraOff : TriangleAlert;
  return (
    <div
      role={kind === 'failed' ? 'alert' : 'status'}
      data-testid="live-overlay"
      data-kind={kind}
      className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/70 p-6 text-center"
    >
      {busy ? (
        <Spinner size="lg" className="text-brand-400" />
      ) : (
        <Icon className="size-9 text-slate-300" aria-hidden="true" />
      )}
      <p className="max-w-sm font-medium text-slate-100">{t(`live.${kind}`)}</p>
      {detail ? <p className="max-w-sm text-sm text-slate-300">{detail}</p> : null}
      {kind === 'failed' && onRetry ? (
        <Button variant="secondary" onClick={onRetry}>
          {t('retry')}
        </Button>
      ) : null}
    </div>
  );
}
