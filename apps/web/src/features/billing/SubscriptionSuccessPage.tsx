import { CHECKOUT_SESSION_QUERY_PARAM } from '@homesitter/contract/runtime';
import { CheckCircle2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../shared/ui/Alert';
import { Card } from '../../shared/ui/Card';
import { Spinner } from '../../shared/ui/Spinner';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { CurrentPlanCard } from './CurrentPlanCard';
import { CHANGE_PLAN_PATH, secondaryLinkClass } from './links';
import { useVerifiedSession, VERIFY_POLL_DELAYS_MS } from './useVerifiedSession';

/** Where hosted Checkout returns after paying: verifies the session, then shows the plan (docs/product.md §2). */
export default function SubscriptionSuccessPage({
  pollDelaysMs = VERIFY_POLL_DELAYS_MS,
}: {
  pollDelaysMs?: readonly number[];
}) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const [params] = useSearchParams();
  const verification = useVerifiedSession(params.get(CHECKOUT_SESSION_QUERY_PARAM), pollDelaysMs);
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('success.title')} />
      {verification.state === 'checking' ? (
        <Card>
          <p role="status" className="flex items-center gap-3 text-sm text-slate-300">
            <Spinner size="sm" className="text-brand-400" /> {t('success.checking')}
          </p>
        </Card>
      ) : null}
      {verification.state === 'failed' ? (
        <div className="flex flex-col gap-4">
          <Alert>{tc('errors.verifySubscriptionFailed')}</Alert>
          <Link to={CHANGE_PLAN_PATH} className={secondaryLinkClass}>
            {t('actions.backToPlans')}
          </Link>
        </div>
      ) : null}
      {verification.state === 'verified' ? (
        <div className="flex flex-col gap-4">
          <p role="status" className="flex items-center gap-3 text-base font-medium text-white">
            <CheckCircle2 className="size-6 shrink-0 text-emerald-400" aria-hidden="true" />
            {t('success.done', {
              plan: verification.subscription.plan ? t(`plans.${verification.subscription.plan}`) : '',
            })}
          </p>
          <CurrentPlanCard subscription={verification.subscription} freeEvents={undefined} />
          <Link to={CHANGE_PLAN_PATH} className={secondaryLinkClass}>
            {t('title')}
          </Link>
        </div>
      ) : null}
    </div>
  );
}
