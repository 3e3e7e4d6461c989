import { MESSAGES } from '@homesitter/contract/runtime';
import type { Price, Subscription } from '@homesitter/contract';
import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { activateSubscription } from './api';
import { CHANGE_PLAN_PATH } from './links';
import { formatMoney } from './format';
import { serverOrigin } from '../../shared/lib/apiOrigin';

/** `processing`: the bank has not confirmed yet; Stripe's webhooks finish the subscription later. */
export type PaymentPhase = 'ready' | 'paying' | 'activating' | 'processing';

const ELEMENT_OPTIONS = { layout: 'tabs' } as const;

/**
 * The card form inside Stripe Elements: confirm the payment intent (no redirect unless the payment method
 * needs one), then activate the subscription with it.
 */
export function PaymentForm({
  price,
  paymentIntentId,
  onPhase,
  onPaid,
}: {
  price: Price;
  paymentIntentId: string;
  onPhase: (phase: PaymentPhase) => void;
  onPaid: (subscription: Subscription) => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const [phase, setPhase] = useState<PaymentPhase>('ready');
  const [error, setError] = useState<string | null>(null);

  function enter(next: PaymentPhase) {
    setPhase(next);
    onPhase(next);
  }

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || phase !== 'ready') return;
    setError(null);
    enter('paying');
    const result = await stripe.confirmPayment({
      elements,
      redirect: 'if_required',
      // In the phone apps the page's own origin is the app's (capacitor://localhost): a payment method that
      // must leave for its bank comes back to the server's web app instead.
      // Stripe adds `payment_intent` and `redirect_status` to it; PaymentReturnNotice finishes from there.
      confirmParams: { return_url: `${serverOrigin() || window.location.origin}${CHANGE_PLAN_PATH}` },
    });
    const status = result.paymentIntent?.status;
    if (result.error || (status !== 'succeeded' && status !== 'processing')) {
      setError(tc('errors.paymentFailed'));
      enter('ready');
      return;
    }
    // Not paid yet (activation would answer 402): the webhooks make the subscription active once it is.
    if (status === 'processing') {
      enter('processing');
      return;
    }
    enter('activating');
    try {
      onPaid(await activateSubscription({ paymentIntentId, priceId: price.id, planId: price.plan }));
    } catch (cause) {
      setError(errorText(tc, cause, MESSAGES.activateSubscriptionFailed));
      enter('ready');
    }
  }

  const amount = formatMoney(price, i18n.language);
  return (
    <form
      onSubmit={(event) => void pay(event)}
      className="flex flex-col gap-4"
      aria-label={t('dialog.title')}
    >
      <PaymentElement options={ELEMENT_OPTIONS} />
      {phase === 'activating' ? <Alert tone="info">{t('dialog.activating')}</Alert> : null}
      {phase === 'processing' ? <Alert tone="info">{t('dialog.processing')}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      {phase === 'processing' ? null : (
        <Button type="submit" busy={phase !== 'ready'} disabled={!stripe || !elements}>
          {t('dialog.pay', { price: amount })}
        </Button>
      )}
    </form>
  );
}
