import { useTranslation } from 'react-i18next';
import type { Camera } from '@homesitter/contract';
import { cn } from '../../shared/ui/cn';
import { cameraStatus, type StatusFields, type StatusTone } from './cameraStatus';
import { useIsPrivate } from './useIsPrivate';

const tones: Record<StatusTone, string> = {
  neutral: 'bg-slate-800 text-slate-300 ring-slate-700',
  busy: 'bg-sky-950 text-sky-200 ring-sky-800',
  good: 'bg-emerald-950 text-emerald-200 ring-emerald-800',
  warn: 'bg-amber-950 text-amber-200 ring-amber-800',
  bad: 'bg-red-950 text-red-200 ring-red-800',
};

/** The camera's state in one word (upload: events or not yet; stream: configuration, then the stream). */
export function StatusBadge({ camera }: { camera: StatusFields & Pick<Camera, 'settings'> }) {
  const { t } = useTranslation('cameras');
  const status = cameraStatus(camera, useIsPrivate(camera));
  return (
    <span
      data-testid="camera-status"
      data-status={status.key}
      title={status.reason ?? undefined}
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1',
        tones[status.tone],
      )}
    >
      {t(`status.${status.key}`)}
      {status.reason ? <span className="sr-only">{`: ${status.reason}`}</span> : null}
    </span>
  );
}
