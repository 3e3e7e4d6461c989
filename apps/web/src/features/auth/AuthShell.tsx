import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLanguageSelect } from '../language/PublicLanguageSelect';
import { Logo } from '../../shared/ui/Logo';
import { LegalLinks } from '../../shared/ui/LegalLinks';
import { StoreLinks } from '../../shared/ui/StoreLinks';

/**
 * The frame of the public auth screens: logo, an optional intro above a centred card, legal links and store
 * links.
 */
export function AuthShell({
  title,
  subtitle,
  intro,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col bg-[radial-gradient(ellipse_at_top,_#0c4a6e55,_transparent_60%)] px-4 pt-[calc(var(--safe-top)+1.5rem)] pb-[calc(var(--safe-bottom)+1.5rem)]">
      <header className="mx-auto flex w-full max-w-md items-center justify-between">
        <Link
          to="/"
          aria-label={t('nav.home')}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <Logo />
        </Link>
        <PublicLanguageSelect />
      </header>
      <main className="mx-auto mt-8 w-full max-w-md flex-1">
        {intro}
        <div className="rounded-2xl bg-slate-900/90 p-6 shadow-2xl ring-1 ring-slate-800 sm:p-8">
          <h1 className="text-2xl font-semibold tracking-tight text-white">{title}</h1>
          {subtitle ? <div className="mt-2 text-sm text-slate-300">{subtitle}</div> : null}
          <div className="mt-6">{children}</div>
        </div>
      </main>
      <footer className="mx-auto mt-8 flex w-full max-w-md flex-col items-center gap-4 text-xs text-slate-400">
        <StoreLinks />
        <LegalLinks />
      </footer>
    </div>
  );
}
