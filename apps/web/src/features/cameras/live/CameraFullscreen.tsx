import type { Camera } from '@homesitter/contract';
import { X } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusBadge } from '../StatusBadge';
import { CameraLiveView } from './CameraLiveView';
import { enterFullscreen, exitFullscreen, useFullscreen } from './useFullscreen';

/**
 * docs/product.md §2 `/cameras/:name/fullscreen`: the picture fills the screen. It asks the browser for real
 * fullscreen (refused without a recent tap: the page then still covers the window); leaving it, by the
 * button, Esc or the browser's own way out, goes back to the camera view.
 */
export function CameraFullscreen({ camera, viewPath }: { camera: Camera; viewPath: string }) {
  const { t } = useTranslation('cameras');
  const navigate = useNavigate();
  const containerRef = useRef<HTMLDivElement>(null);
  const leave = useCallback(() => {
    void exitFullscreen();
    void navigate(viewPath, { replace: true });
  }, [navigate, viewPath]);
  useFullscreen(containerRef, undefined, leave);

  useEffect(() => {
    if (containerRef.current) void enterFullscreen(containerRef.current);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') leave();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [leave]);

  return (
    <div
      ref={containerRef}
      role="dialog"
      aria-modal="true"
      aria-label={t('live.fullscreenLabel', { name: camera.name })}
      className="fixed inset-0 z-[60] flex flex-col bg-black pt-[var(--safe-top)] pb-[var(--safe-bottom)]"
    >
      <div className="flex items-center gap-3 px-3 py-2">
        <h1 className="min-w-0 flex-1 truncate font-semibold text-white">{camera.name}</h1>
        <StatusBadge camera={camera} />
        <button
          type="button"
          onClick={leave}
          className="inline-flex h-10 items-center gap-2 rounded-lg bg-white/10 px-3 text-sm font-medium text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <X className="size-5" aria-hidden="true" />
          {t('view.exitFullscreen')}
        </button>
      </div>
      <div className="min-h-0 flex-1">
        <CameraLiveView camera={camera} fill fullscreenControl={false} />
      </div>
    </div>
  );
}
