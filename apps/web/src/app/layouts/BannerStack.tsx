import { BANNER_OFFSET_REM } from '@homesitter/contract/runtime';
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useActiveBanners } from '../../shared/lib/banners';
import { emitHighlight } from '../../shared/lib/highlight';
import { cn } from '../../shared/ui/cn';

export function BannerStack() {
  const { t } = useTranslation();
  const banners = useActiveBanners();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (banners.length === 0) return null;
  return (
    <div
      role="region"
      aria-label={t('banners.label')}
      className="fixed inset-x-0 top-[var(--safe-top)] z-30 lg:left-[300px]"
    >
      {banners.map((banner) => (
        <button
          key={banner.id}
          type="button"
          style={{ height: `${BANNER_OFFSET_REM}rem` }}
          onClick={() =>
            pathname === banner.to ? emitHighlight(banner.highlight) : void navigate(banner.to)
          }
          className={cn(
            'flex w-full items-center justify-center gap-2 px-4 text-sm font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white',
            banner.tone === 'warning' ? 'bg-amber-300 text-slate-950' : 'bg-violet-300 text-slate-950',
          )}
        >
          <ShieldAlert className="size-4" aria-hidden="true" />
          {t(banner.textKey, banner.textOptions)}
        </button>
      ))}
    </div>
  );
}
