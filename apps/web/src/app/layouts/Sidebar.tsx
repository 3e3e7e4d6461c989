import { SIDEBAR_WIDTH_PX } from '@homesitter/contract/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '../../shared/ui/Logo';
import { AppFooter } from './AppFooter';
import { NavList } from './NavList';

/** Large screens: the 300px left sidebar. */
export function Sidebar() {
  const { t } = useTranslation();
  return (
    <aside
      aria-label={t('nav.label')}
      style={{ width: SIDEBAR_WIDTH_PX }}
      className="fixed inset-y-0 left-0 z-20 hidden flex-col gap-6 overflow-y-auto border-r border-slate-800 bg-slate-900 px-4 pt-[calc(var(--safe-top)+1.25rem)] pb-5 lg:flex"
      data-testid="sidebar"
    >
      <Link
        to="/"
        aria-label={t('nav.home')}
        className="rounded-lg px-2 focus-visible:outline-2 focus-visible:outline-brand-400"
      >
        <Logo />
      </Link>
      <nav aria-label={t('nav.main')}>
        <NavList />
      </nav>
      <div className="mt-auto">
        <AppFooter />
      </div>
    </aside>
  );
}
