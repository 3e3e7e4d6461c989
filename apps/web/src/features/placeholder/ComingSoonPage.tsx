import { Hourglass } from 'lucide-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

/** A screen another release builds: its skeleton, dimmed, under an honest note. */
export function ComingSoonPage({ titleKey, Skeleton }: { titleKey: string; Skeleton: ComponentType }) {
  const { t } = useTranslation();
  return (
    <div className="relative">
      <div aria-hidden="true" inert className="pointer-events-none opacity-40">
        <Skeleton />
      </div>
      <div className="absolute inset-x-0 top-16 flex justify-center px-4">
        <section className="max-w-md rounded-2xl bg-slate-900/95 p-6 text-center shadow-2xl ring-1 ring-slate-700">
          <Hourglass className="mx-auto mb-3 size-8 text-brand-400" aria-hidden="true" />
          <h1 className="text-xl font-semibold text-white">{t(titleKey)}</h1>
          <p className="mt-2 text-sm text-slate-300">{t('comingSoon.text')}</p>
        </section>
      </div>
    </div>
  );
}
