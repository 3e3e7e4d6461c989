import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '../../shared/ui/Card';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { CHANGE_PLAN_PATH, secondaryLinkClass } from './links';

/** Where hosted Checkout returns when the user leaves it without paying. */
export default function SubscriptionCanceledPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('canceled.title')} />
      <Card className="flex flex-col items-start gap-4">
        <p role="status" className="text-base font-medium text-white">
          {tc('errors.paymentCancelled')}
        </p>
        <p className="text-sm text-slate-300">{t('canceled.text')}</p>
        <Link to={CHANGE_PLAN_PATH} className={secondaryLinkClass}>
          {t('actions.backToPlans')}
        </Link>
      </Card>
    </div>
  );
}
