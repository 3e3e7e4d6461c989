import type { BillingPlan, Price } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';
import { formatMoney } from './format';

/** Monthly or yearly, with the server's prices in the user's language. */
export function PlanPicker({
  prices,
  selected,
  current,
  onSelect,
  highlighted = false,
}: {
  prices: Price[];
  selected: string | null;
  current: BillingPlan | null;
  onSelect: (priceId: string) => void;
  highlighted?: boolean;
}) {
  const { t, i18n } = useTranslation('billing');
  return (
    <fieldset className={cn('flex flex-col gap-3 rounded-2xl', highlighted && 'animate-highlight')}>
      <legend className="mb-3 text-base font-semibold text-white">{t('plans.legend')}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {prices.map((price) => {
          const amount = formatMoney(price, i18n.language);
          const checked = selected === price.id;
          return (
            <label
              key={price.id}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-2xl bg-slate-900 p-4 ring-1 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-400',
                checked ? 'ring-2 ring-brand-400' : 'ring-slate-800 hover:ring-slate-600',
              )}
            >
              <input
                type="radio"
                name="plan"
                value={price.id}
                checked={checked}
                onChange={() => onSelect(price.id)}
                className="mt-1 size-4 accent-brand-500"
              />
              <span className="flex flex-col gap-1">
                <span className="text-sm font-semibold text-white">{t(`plans.${price.plan}`)}</span>
                <span className="text-sm text-slate-300">
                  {price.interval === 'year'
                    ? t('plans.perYear', { price: amount })
                    : t('plans.perMonth', { price: amount })}
                </span>
                {current === price.plan ? (
                  <span className="w-fit rounded-full bg-brand-500/15 px-2 py-0.5 text-xs font-medium text-brand-400">
                    {t('plans.current')}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
