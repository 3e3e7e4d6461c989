import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function MemoryHeader({ title, back, actions }: { title: string; back: string; actions?: ReactNode }) {
  const { t } = useTranslation('memories');
  return (
    <header className="mb-6 flex items-center gap-3">
      <Link
        to={back}
        aria-label={t('back')}
        className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
      >
        <ArrowLeft className="size-5" aria-hidden="true" />
      </Link>
      <h1 className="line-clamp-1 flex-1 text-2xl font-semibold tracking-tight text-white">{title}</h1>
      {actions}
    </header>
  );
}

export const memoryPageClass = 'mx-auto w-full max-w-2xl p-4 md:p-8';
