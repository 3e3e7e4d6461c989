import { useTranslation } from 'react-i18next';

/** Marks a camera that comes from the owner's linked Google Nest account. */
export function NestMark() {
  const { t } = useTranslation('cameras');
  return (
    <span
      data-testid="nest-mark"
      className="shrink-0 rounded-full bg-slate-800 px-1.5 py-0.5 text-[0.65rem] font-semibold tracking-wide text-slate-300 uppercase ring-1 ring-slate-700"
    >
      {t('nest.mark')}
    </span>
  );
}
