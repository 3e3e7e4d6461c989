import { MESSAGES } from '@homesitter/contract/runtime';
import type { PaymentIntent, Price, Subscription } from '@homesitter/contract';
import * as Dialog from '@radix-ui/react-dialog';
import type { Stripe } from '@stripe/stripe-js';
import { Elements } from '@stripe/react-stripe-js';
import { X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Spinner } from '../../shared/ui/Spinner';
import { createPaymentIntent, useRefreshBilling } from './api';
import { formatMoney } from './format';
import { PaymentForm, type PaymentPhase } from './PaymentForm';
import { loadStripeJs } from './stripeJs';

type Setup =
  | { state: 'loading' }
  | { state: 'failed'; cause?: unknown; fallback: string }
  | { state: 'ready'; intent: PaymentIntent; stripe: Stripe };

/** Creates the payment intent, then loads Stripe.js with the key it names. */
function usePaymentSetup(price: Price): Setup {
  const [setup, setSetup] = useState<Setup>({ state: 'loading' });
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let intent: PaymentIntent;
      try {
        intent = await createPaymentIntent(price.id);
      } catch (cause) {
        if (!cancelled) setSetup({ state: 'failed', cause, fallback: MESSAGES.createPaymentIntentFailed });
        return;
      }
      const stripe = await loadStripeJs(intent.publishableKey).catch(() => null);
      if (cancelled) return;
      setSetup(
        stripe
          ? { state: 'ready', intent, stripe }
          : { state: 'failed', fallback: MESSAGES.initializePaymentFailed },
      );
    })();
    return () => {
      cancelled = true;
    };
  }, [price.id]);
  return setup;
}

function DialogBody({
  price,
  onPhase,
  onPaid,
}: {
  price: Price;
  onPhase: (phase: PaymentPhase) => void;
  onPaid: (subscription: Subscription) => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const setup = usePaymentSetup(price);
  const options = useMemo(
    () =>
      setup.state === 'ready'
        ? {
            clientSecret: setup.intent.clientSecret,
            appearance: { theme: 'night' as const },
            locale: i18n.language === 'de' ? ('de' as const) : ('en' as const),
          }
        : undefined,
    [setup, i18n.language],
  );
  if (setup.state === 'failed') return <Alert>{errorText(tc, setup.cause, setup.fallback)}</Alert>;
  if (setup.state === 'loading' || !options) {
    return (
      <p role="status" className="flex items-center gap-3 text-sm text-slate-300">
        <Spinner size="sm" /> {t('dialog.preparing')}
      </p>
    );
  }
  return (
    <Elements stripe={setup.stripe} options={options}>
      <PaymentForm
        price={price}
        paymentIntentId={setup.intent.paymentIntentId}
        onPhase={onPhase}
        onPaid={onPaid}
      />
    </Elements>
  );
}

/**
 * The in-app payment dialog (docs/product.md §2): Stripe's card form for the first payment of `price`. Closing it before
 * the payment went through says "Payment cancelled." (§8).
 */
export function PaymentDialog({
  price,
  onClose,
  onPaid,
}: {
  price: Price;
  onClose: () => void;
  onPaid: (subscription: Subscription) => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const phase = useRef<PaymentPhase>('ready');
  const refresh = useRefreshBilling();
  const busy = () => phase.current === 'paying' || phase.current === 'activating';

  function close() {
    if (busy()) return;
    // A payment still processing was not cancelled: the plan follows Stripe's webhooks.
    if (phase.current === 'processing') refresh();
    else notify.info(tc('errors.paymentCancelled'));
    onClose();
  }

  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm" />
        <Dialog.Content
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-slate-900 p-6 shadow-2xl ring-1 ring-slate-700 focus:outline-none"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-white">{t('dialog.title')}</Dialog.Title>
            <Dialog.Close
              aria-label={tc('common.close')}
              className="rounded-lg p-1 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-2 mb-4 text-sm text-slate-300">
            {t('dialog.description', {
              plan: t(`plans.${price.plan}`),
              price: formatMoney(price, i18n.language),
            })}
          </Dialog.Description>
          <DialogBody
            price={price}
            onPhase={(next) => (phase.current = next)}
            onPaid={(subscription) => {
              phase.current = 'ready';
              notify.success(t('dialog.paid'));
              onPaid(subscription);
            }}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
