import { MESSAGES } from '@homesitter/contract/runtime';
import type { Price, Subscription } from '@homesitter/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { useHighlight } from '../../shared/lib/highlight';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { useProfile } from '../user/profile';
import {
  isActive,
  useBillingState,
  useOpenPortal,
  usePrices,
  useRefreshBilling,
  useStartCheckout,
  useUpdatePlan,
} from './api';
import { CurrentPlanCard } from './CurrentPlanCard';
import { formatMoney } from './format';
import { CANCEL_SUBSCRIPTION_PATH } from './links';
import { NotConfiguredCard } from './NotConfiguredCard';
import { PaymentDialog } from './PaymentDialog';
import { PaymentReturnNotice } from './PaymentReturnNotice';
import { PlanPicker } from './PlanPicker';

const cancelLinkClass =
  'inline-flex h-11 items-center justify-center rounded-lg px-4 text-sm font-semibold text-red-300 ring-1 ring-red-900/70 hover:bg-red-950/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/** Subscribe (hosted Checkout or the in-app dialog), or switch plan with a confirmation when already active. */
function PlanActions({
  price,
  subscription,
  inAppPayment,
}: {
  price: Price;
  subscription: Subscription | null;
  inAppPayment: boolean;
}) {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const refresh = useRefreshBilling();
  const checkout = useStartCheckout();
  const update = useUpdatePlan();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const plan = t(`plans.${price.plan}`);
  const amount = formatMoney(price, i18n.language);

  if (isActive(subscription)) {
    if (subscription?.price?.id === price.id || (!subscription?.price && subscription?.plan === price.plan))
      return <p className="text-sm text-slate-300">{t('actions.isCurrent')}</p>;
    return (
      <div className="flex flex-col gap-3">
        {update.isError ? (
          <Alert>{errorText(tc, update.error, MESSAGES.updateSubscriptionFailed)}</Alert>
        ) : null}
        <Button className="w-full sm:w-fit" onClick={() => setConfirmOpen(true)}>
          {t(`actions.switchTo.${price.plan}`)}
        </Button>
        <ConfirmDialog
          open={confirmOpen}
          onOpenChange={setConfirmOpen}
          title={t('switch.title', { plan })}
          description={t('switch.text', {
            price:
              price.interval === 'year'
                ? t('plans.perYear', { price: amount })
                : t('plans.perMonth', { price: amount }),
          })}
          confirmLabel={t('switch.confirm')}
          busy={update.isPending}
          onConfirm={() =>
            update.mutate(
              { priceId: price.id, planId: price.plan },
              {
                onSuccess: () => notify.success(t('switch.done', { plan })),
                onSettled: () => setConfirmOpen(false),
              },
            )
          }
        />
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      {checkout.isError ? <Alert>{errorText(tc, checkout.error, MESSAGES.startCheckoutFailed)}</Alert> : null}
      <p className="text-sm text-slate-400">{t('actions.payHint')}</p>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button busy={checkout.isPending || checkout.isSuccess} onClick={() => checkout.mutate(price.id)}>
          {t('actions.checkout')}
        </Button>
        {inAppPayment ? (
          <Button variant="secondary" onClick={() => setDialogOpen(true)}>
            {t('actions.payInApp')}
          </Button>
        ) : null}
      </div>
      {dialogOpen ? (
        <PaymentDialog
          price={price}
          onClose={() => setDialogOpen(false)}
          onPaid={(next) => {
            setDialogOpen(false);
            refresh(next);
          }}
        />
      ) : null}
    </div>
  );
}

function Plans({ subscription }: { subscription: Subscription | null }) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const prices = usePrices(true);
  const highlighted = useHighlight('free-events');
  const [chosen, setChosen] = useState<string | null>(null);
  if (prices.isPending) return <PageSpinner />;
  if (prices.isError) {
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert>{errorText(tc, prices.error, MESSAGES.loadSubscriptionPricesFailed)}</Alert>
        <Button variant="secondary" onClick={() => void prices.refetch()}>
          {tc('common.retry')}
        </Button>
      </div>
    );
  }
  const list = prices.data.prices;
  const currentPlan = isActive(subscription) ? (subscription?.plan ?? null) : null;
  const fallback = list.find((p) => p.plan !== currentPlan) ?? list[0];
  const selected = list.find((p) => p.id === chosen) ?? fallback;
  if (!selected) return <Alert>{tc('errors.invalidPlan')}</Alert>;
  return (
    <section aria-label={t('plans.legend')} className="flex flex-col gap-4">
      <PlanPicker
        prices={list}
        selected={selected.id}
        current={currentPlan}
        onSelect={setChosen}
        highlighted={highlighted}
      />
      <PlanActions
        key={selected.id}
        price={selected}
        subscription={subscription}
        inAppPayment={prices.data.inAppPayment}
      />
    </section>
  );
}

function AccountActions({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const portal = useOpenPortal();
  return (
    <div className="flex flex-col gap-3">
      {portal.isError ? <Alert>{errorText(tc, portal.error, MESSAGES.openBillingPortalFailed)}</Alert> : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button
          variant="secondary"
          busy={portal.isPending || portal.isSuccess}
          onClick={() => portal.mutate()}
        >
          {t('actions.portal')}
        </Button>
        {isActive(subscription) ? (
          <Link to={CANCEL_SUBSCRIPTION_PATH} className={cancelLinkClass}>
            {t('actions.cancel')}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** Settings → subscription (docs/product.md §2 settings/account/change-plan). */
export default function ChangePlanPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const billing = useBillingState();
  const profile = useProfile();

  let body;
  if (billing.isPending) body = <PageSpinner />;
  else if (billing.isError)
    body = (
      <div className="flex flex-col items-start gap-3">
        <Alert>{errorText(tc, billing.error, MESSAGES.somethingWentWrong)}</Alert>
        <Button variant="secondary" onClick={() => void billing.refetch()}>
          {tc('common.retry')}
        </Button>
      </div>
    );
  else if (billing.data.kind === 'notConfigured') body = <NotConfiguredCard />;
  else {
    const subscription = billing.data.kind === 'subscribed' ? billing.data.subscription : null;
    body = (
      <div className="flex flex-col gap-6">
        <PaymentReturnNotice subscription={subscription} />
        <CurrentPlanCard
          subscription={subscription}
          freeEvents={subscription?.remaining_free_events ?? profile.data?.remaining_free_events}
        />
        <Plans subscription={subscription} />
        {subscription ? <AccountActions subscription={subscription} /> : null}
      </div>
    );
  }
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('title')} back="/settings" />
      {body}
    </div>
  );
}
