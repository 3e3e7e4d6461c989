import { BadgeCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../shared/ui/Card';

/** No payment provider on this server (503 `billing.not_configured`): everything is free, without limits. */
export function NotConfiguredCard() {
  const { t } = useTranslation('billing');
  return (
    <Card aria-labelledby="free-plan-heading" className="flex items-start gap-4">
      <BadgeCheck className="mt-0.5 size-6 shrink-0 text-brand-400" aria-hidden="true" />
      <div>
        <h2 id="free-plan-heading" className="text-base font-semibold text-white">
          {t('notConfigured.heading')}
        </h2>
        <p className="mt-1 text-sm text-slate-300">{t('notConfigured.text')}</p>
      </div>
    </Card>
  );
}
