import type { Subscription } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../shared/ui/Card';
import { isActive } from './api';
import { formatDate } from './format';

const KNOWN_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
];

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className="text-sm font-medium text-white">{value}</dd>
    </div>
  );
}

/** Plan, status, next payment or end date, and free events left (docs/product.md §3 "Subscription"). */
export function CurrentPlanCard({
  subscription,
  freeEvents,
}: {
  subscription: Subscription | null;
  freeEvents: number | undefined;
}) {
  const { t, i18n } = useTranslation('billing');
  const status = subscription?.status;
  const ended = status === 'canceled';
  return (
    <Card aria-labelledby="current-plan-heading">
      <h2 id="current-plan-heading" className="mb-3 text-base font-semibold text-white">
        {t('current.heading')}
      </h2>
      {subscription ? null : <p className="mb-3 text-sm text-slate-300">{t('current.none')}</p>}
      <dl className="flex flex-col gap-2">
        <Row
          label={t('current.plan')}
          value={subscription?.plan ? t(`plans.${subscription.plan}`) : t('current.freePlan')}
        />
        {status ? (
          <Row
            label={t('current.status')}
            value={KNOWN_STATUSES.includes(status) ? t(`status.${status}`) : t('status.unknown', { status })}
          />
        ) : null}
        {subscription?.next_billing_date && !subscription.end_date ? (
          <Row
            label={t('current.nextBilling')}
            value={formatDate(subscription.next_billing_date, i18n.language)}
          />
        ) : null}
        {subscription?.end_date ? (
          <Row
            label={ended ? t('current.endedOn') : t('current.endDate')}
            value={formatDate(subscription.end_date, i18n.language)}
          />
        ) : null}
        {!isActive(subscription) && freeEvents !== undefined ? (
          <Row label={t('current.freeEvents')} value={String(Math.max(0, freeEvents))} />
        ) : null}
      </dl>
    </Card>
  );
}
