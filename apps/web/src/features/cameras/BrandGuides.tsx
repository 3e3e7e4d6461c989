import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../shared/ui/Card';

/** Brands with their own steps in the translations; "other" covers any camera with FTP or email alerts. */
const BRANDS = ['reolink', 'hikvision', 'dahua', 'amcrest', 'foscam', 'other'] as const;

/** Step-by-step upload instructions for common camera brands. */
export function BrandGuides() {
  const { t } = useTranslation('cameras');
  return (
    <Card>
      <h2 className="mb-1 text-lg font-semibold text-white">{t('setup.guidesTitle')}</h2>
      <p className="mb-4 text-sm text-slate-400">{t('setup.guidesIntro')}</p>
      <div className="flex flex-col gap-2">
        {BRANDS.map((brand) => {
          const steps = t(`brands.${brand}.steps`, { returnObjects: true }) as unknown;
          return (
            <details key={brand} className="group rounded-xl bg-slate-950/60 ring-1 ring-slate-800">
              <summary className="flex cursor-pointer items-center justify-between px-4 py-3 text-sm font-medium text-slate-100 focus-visible:outline-2 focus-visible:outline-brand-400">
                {t(`brands.${brand}.name`)}
                <ChevronDown
                  className="size-4 transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </summary>
              <ol className="list-decimal space-y-1.5 px-9 pb-4 text-sm text-slate-300">
                {(Array.isArray(steps) ? (steps as string[]) : []).map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </details>
          );
        })}
      </div>
    </Card>
  );
}
