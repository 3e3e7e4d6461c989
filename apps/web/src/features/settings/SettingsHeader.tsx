import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function SettingsHeader({ title, back }: { title: string; back?: string }) {
  const { t } = useTranslation();
  return (
    <header className="mb-6 flex items-center gap-3">
      {back ? (
        <Link
          to={back}
          aria-label={t('common.back')}
          className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
        </Link>
      ) : null}
      <h1 className="text-2xl font-semibold tracking-tight text-white">{title}</h1>
    </header>
  );
}

export const pageClass = 'mx-auto w-full max-w-3xl p-4 md:p-8';
