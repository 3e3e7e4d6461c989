import { useTranslation } from 'react-i18next';
import { cn } from '../../../shared/ui/cn';
import { STEPS, type Step } from '../flow';

/** Where the owner is in the flow: the five steps, the current one marked for sight and screen readers. */
export function StepIndicator({ step }: { step: Step }) {
  const { t } = useTranslation('discovery');
  const current = STEPS.indexOf(step);
  return (
    <nav aria-label={t('steps.label')} className="mb-6">
      <ol className="flex flex-wrap gap-x-4 gap-y-2 text-xs sm:text-sm">
        {STEPS.map((s, i) => (
          <li
            key={s}
            aria-current={i === current ? 'step' : undefined}
            className={cn(
              'flex items-center gap-2',
              i === current ? 'font-semibold text-white' : i < current ? 'text-slate-300' : 'text-slate-400',
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                'flex size-6 items-center justify-center rounded-full text-xs ring-1',
                i === current
                  ? 'bg-brand-500 text-slate-950 ring-brand-500'
                  : i < current
                    ? 'bg-slate-800 ring-brand-500'
                    : 'bg-slate-900 ring-slate-700',
              )}
            >
              {i + 1}
            </span>
            {t(`steps.${s}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}
