import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '../../shared/ui/Logo';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { LegalLinks } from '../../shared/ui/LegalLinks';

interface Section {
  heading: string;
  body: string[];
}

/** Privacy, cookies and terms: text from the translation files, readable signed out. */
export function LegalPage({ doc }: { doc: 'privacy' | 'cookies' | 'terms' }) {
  const { t } = useTranslation();
  const { t: tl, ready } = useTranslation('legal');
  if (!ready) return <PageSpinner fullScreen />;
  const sections = tl(`${doc}.sections`, { returnObjects: true }) as Section[];
  return (
    <div className="min-h-dvh px-4 pt-[calc(var(--safe-top)+1.5rem)] pb-16">
      <header className="mx-auto flex max-w-3xl items-center justify-between">
        <Link to="/" aria-label={t('nav.home')} className="rounded-lg">
          <Logo />
        </Link>
        <Link to="/auth" className="inline-flex items-center gap-1 text-sm text-brand-400 hover:underline">
          <ArrowLeft className="size-4" aria-hidden="true" />
          {tl('backToApp')}
        </Link>
      </header>
      <main className="mx-auto mt-10 max-w-3xl">
        <h1 className="text-3xl font-semibold tracking-tight text-white">{tl(`${doc}.title`)}</h1>
        <p className="mt-2 text-sm text-slate-400">{tl('updated')}</p>
        <p className="mt-6 leading-relaxed text-slate-200">{tl(`${doc}.intro`)}</p>
        {Array.isArray(sections)
          ? sections.map((section) => (
              <section key={section.heading} className="mt-8">
                <h2 className="text-lg font-semibold text-white">{section.heading}</h2>
                {section.body.map((paragraph) => (
                  <p key={paragraph} className="mt-3 leading-relaxed text-slate-300">
                    {paragraph}
                  </p>
                ))}
              </section>
            ))
          : null}
        <LegalLinks className="mt-12 text-sm text-slate-400" />
      </main>
    </div>
  );
}
