import { ImageOff } from 'lucide-react';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn';

/**
 * Where an event's picture would be when it has none (`media_kind: "none"`: a Nest event that reached the
 * server after Google's picture had expired): a neutral tile that says so, never a broken image.
 */
export function NoPicture({ className, style }: { className?: string; style?: CSSProperties }) {
  const { t } = useTranslation();
  return (
    <span
      role="img"
      aria-label={t('video.noPicture')}
      data-testid="no-picture"
      className={cn(
        'flex flex-col items-center justify-center gap-1 bg-slate-800 text-xs text-slate-400',
        className,
      )}
      style={style}
    >
      <ImageOff className="size-5" aria-hidden="true" />
      <span aria-hidden="true">{t('video.noPicture')}</span>
    </span>
  );
}
