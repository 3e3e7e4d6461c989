import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useCamerasHighlight } from '../../shared/lib/navFlags';
import { cn } from '../../shared/ui/cn';
import { ChatBadge } from './NavBadge';
import { NAV_ITEMS } from './navItems';

export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const camerasPulse = useCamerasHighlight();
  return (
    <ul className="flex flex-col gap-1">
      {NAV_ITEMS.map(({ to, labelKey, icon: Icon }) => (
        <li key={to}>
          <NavLink
            to={to}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'flex h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-brand-400',
                isActive
                  ? 'bg-slate-800 text-white'
                  : 'text-slate-300 hover:bg-slate-800/60 hover:text-white',
              )
            }
          >
            <Icon
              className={cn('size-5', to === '/cameras' && camerasPulse && 'animate-pulse text-brand-400')}
              data-pulse={to === '/cameras' && camerasPulse ? 'true' : undefined}
              aria-hidden="true"
            />
            {t(labelKey)}
            {to === '/chat' ? <ChatBadge className="ml-auto" /> : null}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
