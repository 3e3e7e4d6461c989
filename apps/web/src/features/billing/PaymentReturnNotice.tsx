import { MESSAGES } from '@homesitter/contract/runtime';
import type { Subscription } from '@homesitter/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { ApiError } from '../../shared/lib/http';
import { Alert } from '../../shared/ui/Alert';
import { activateSubscription, isActive, useRefreshBilling } from './api';

/** What Stripe adds to the payment dialog's `return_url` after a redirect (3-D Secure, a bank's page). */
const RETURN_PARAMS = ['payment_intent', 'payment_intent_client_secret', 'redirect_status'] as const;
const REFUSED = new Set(['failed', 'requires_payment_method']);

/**
 * Back on change plan from a payment that had to leave the app: finishes the activation with the payment
 * intent Stripe names (the subscription waiting for it is the user's incomplete one), or says how it stands.
 * The query is read once and removed, so a reload does not run it again.
 */
export function PaymentReturnNotice({ subscription }: { subscription: Subscription | null }) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const [params, setParams] = useSearchParams();
  const refresh = useRefreshBilling();
  const [landing] = useState(() => {
    const paymentIntentId = params.get('payment_intent');
    return paymentIntentId ? { paymentIntentId, status: params.get('redirect_status') } : null;
  });
  const activate = useMutation({
    mutationFn: activateSubscription,
    onSuccess: (active) => refresh(active),
    // 402: Stripe has not confirmed the payment yet; its webhooks finish the subscription.
    onError: () => refresh(),
  });
  const started = useRef(false);
  const price = subscription?.price;
  const waiting = !isActive(subscription) && price && landing?.status !== 'processing';

  useEffect(() => {
    if (!landing || started.current) return;
    started.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of RETURN_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
    if (landing.status && REFUSED.has(landing.status)) return;
    if (waiting)
      activate.mutate({ paymentIntentId: landing.paymentIntentId, priceId: price.id, planId: price.plan });
    else refresh();
  }, [landing, waiting, price, activate, setParams, refresh]);

  if (!landing) return null;
  if (landing.status && REFUSED.has(landing.status)) return <Alert>{t('paymentReturn.failed')}</Alert>;
  if (activate.isSuccess || isActive(subscription))
    return <Alert tone="success">{t('paymentReturn.paid')}</Alert>;
  if (activate.isError) {
    const pending =
      activate.error instanceof ApiError && activate.error.code === 'billing.payment_incomplete';
    if (!pending) return <Alert>{errorText(tc, activate.error, MESSAGES.activateSubscriptionFailed)}</Alert>;
  }
  if (activate.isPending || (activate.isIdle && waiting))
    return <Alert tone="info">{t('paymentReturn.activating')}</Alert>;
  return <Alert tone="info">{t('paymentReturn.processing')}</Alert>;
}
