import { BOTTOM_BAR_HEIGHT_REM } from '@homesitter/contract/runtime';
import { Menu } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useCamerasHighlight } from '../../shared/lib/navFlags';
import { cn } from '../../shared/ui/cn';
import { ChatBadge } from './NavBadge';
import { BOTTOM_BAR_ITEMS } from './navItems';

const itemClass =
  'flex h-full flex-1 flex-col items-center justify-center gap-1 text-xs font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-400';

/** Small screens: the 4.5rem bottom tab bar. */
export function BottomBar({ menuOpen, onOpenMenu }: { menuOpen: boolean; onOpenMenu: () => void }) {
  const { t } = useTranslation();
  const camerasPulse = useCamerasHighlight();
  return (
    <nav
      aria-label={t('nav.main')}
      data-testid="bottom-bar"
      style={{ height: `calc(${BOTTOM_BAR_HEIGHT_REM}rem + var(--safe-bottom))` }}
      className="fixed inset-x-0 bottom-0 z-30 flex border-t border-slate-800 bg-slate-900/95 pb-[var(--safe-bottom)] backdrop-blur lg:hidden"
    >
      {BOTTOM_BAR_ITEMS.map(({ to, labelKey, icon: Icon }) => (
        <NavLink
          key={to}
          to={to}
          className={({ isActive }) =>
            cn(itemClass, 'relative', isActive ? 'text-brand-400' : 'text-slate-300 hover:text-white')
          }
        >
          <Icon
            className={cn('size-6', to === '/cameras' && camerasPulse && 'animate-pulse text-brand-400')}
            data-pulse={to === '/cameras' && camerasPulse ? 'true' : undefined}
            aria-hidden="true"
          />
          {t(labelKey)}
          {to === '/chat' ? <ChatBadge className="absolute top-2 left-1/2 ml-2" /> : null}
        </NavLink>
      ))}
      <button
        type="button"
        onClick={onOpenMenu}
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        className={cn(itemClass, 'text-slate-300 hover:text-white')}
      >
        <Menu className="size-6" aria-hidden="true" />
        {t('nav.menu')}
      </button>
    </nav>
  );
}
