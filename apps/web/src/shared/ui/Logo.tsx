import { useTranslation } from 'react-i18next';

export function Logo({ withName = true }: { withName?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-500" />
        <path
          d="M8 16.5 16 9l8 7.5V24a1 1 0 0 1-1 1h-4.5v-5h-5v5H9a1 1 0 0 1-1-1z"
          className="fill-slate-950"
        />
      </svg>
      {withName ? (
        <span className="text-lg font-semibold tracking-tight text-white">{t('app.name')}</span>
      ) : null}
    </span>
  );
}
