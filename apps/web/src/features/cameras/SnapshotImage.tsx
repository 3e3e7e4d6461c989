import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PictureFocus } from '@homesitter/contract';
import { focusStyle } from '../../shared/lib/focus';
import { cn } from '../../shared/ui/cn';

/**
 * A camera's snapshot (a signed URL), loaded lazily. A new URL gets a fresh chance in the same element (no
 * flash); when it cannot be loaded (expired, replaced a moment ago) the last picture that did load stays, and
 * only when there is none it says so instead of showing a broken image.
 */
interface SnapshotImageProps {
  src: string;
  alt: string;
  className?: string;
  /** Load at once (the main picture of a screen) rather than when scrolled near. */
  eager?: boolean;
  fit?: 'cover' | 'contain';
  /** What a cover crop keeps in view (the server's detections); centred when absent. */
  focus?: PictureFocus;
}

export function SnapshotImage({ src, alt, className, eager, fit = 'cover', focus }: SnapshotImageProps) {
  const { t } = useTranslation('cameras');
  // The address that failed: a new one (the next snapshot) replaces the picture in the same element.
  const [failed, setFailed] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);
  const shown = failed === src ? loaded : src;
  if (!shown) {
    return (
      <div
        role="img"
        aria-label={alt}
        className={cn(
          'flex flex-col items-center justify-center gap-2 bg-slate-950 text-xs text-slate-400',
          className,
        )}
      >
        <ImageOff className="size-6" aria-hidden="true" />
        <span aria-hidden="true">{t('card.snapshotUnavailable')}</span>
      </div>
    );
  }
  return (
    <img
      src={shown}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onLoad={() => setLoaded(shown)}
      onError={() => (shown === src ? setFailed(src) : setLoaded(null))}
      style={fit === 'cover' ? focusStyle(focus) : undefined}
      className={cn('bg-slate-950', fit === 'cover' ? 'object-cover' : 'object-contain', className)}
    />
  );
}
