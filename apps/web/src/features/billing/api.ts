import { ACTIVE_SUBSCRIPTION_STATUS, MESSAGES } from '@homesitter/contract/runtime';
import type { BillingPlan, Price, Subscription } from '@homesitter/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import { useSession } from '../../shared/lib/useSession';
import { profileKey } from '../user/profile';
import { openExternal, useOnReturnFromCache } from './navigation';

export const billingKey = ['billing'] as const;
export const subscriptionKey = [...billingKey, 'subscription'] as const;
export const pricesKey = [...billingKey, 'prices'] as const;

/** Where the user stands: no payment provider on this server (free, no limits), no subscription, or one. */
export type BillingState =
  { kind: 'notConfigured' } | { kind: 'none' } | { kind: 'subscribed'; subscription: Subscription };

/** docs/product.md §9: active means the status is exactly `active`. */
export function isActive(subscription: Subscription | null | undefined): boolean {
  return subscription?.status === ACTIVE_SUBSCRIPTION_STATUS;
}

export function isNotConfigured(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'billing.not_configured';
}

/** GET subscription: 404 is "none" (docs/product.md §8), 503 `billing.not_configured` is the free plan without limits. */
export async function fetchBillingState(): Promise<BillingState> {
  try {
    return { kind: 'subscribed', subscription: (await api.call('getSubscription')).data };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.code === 'subscription.not_found'))
      return { kind: 'none' };
    if (isNotConfigured(error)) return { kind: 'notConfigured' };
    throw error;
  }
}

export function useBillingState(enabled = true) {
  const { status, isVerified } = useSession();
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: fetchBillingState,
    enabled: enabled && status === 'signedIn' && isVerified,
  });
}

export interface PriceList {
  prices: Price[];
  /** The server can take a card in the app (it has Stripe's publishable key); otherwise hosted Checkout only. */
  inAppPayment: boolean;
}

/** GET prices; docs/product.md §5: the answer must hold a `data` array. */
export async function fetchPrices(): Promise<PriceList> {
  const answer = await api.call('getPrices', { fallbackMessage: MESSAGES.loadSubscriptionPricesFailed });
  if (!Array.isArray(answer.data)) throw new Error(MESSAGES.loadSubscriptionPricesFailed);
  return { prices: answer.data, inAppPayment: answer.in_app_payment === true };
}

export function usePrices(enabled: boolean) {
  return useQuery({ queryKey: pricesKey, queryFn: fetchPrices, enabled });
}

/** After any change: the subscription, and the profile (free events, `stripe_data`) follow it. */
export function useRefreshBilling() {
  const queryClient = useQueryClient();
  return (subscription?: Subscription) => {
    if (subscription) {
      const state: BillingState = { kind: 'subscribed', subscription };
      queryClient.setQueryData(subscriptionKey, state);
    }
    void queryClient.invalidateQueries({ queryKey: subscriptionKey });
    void queryClient.invalidateQueries({ queryKey: profileKey });
  };
}

/** Hosted Checkout: the server answers the provider's page, and the app goes there. */
export function useStartCheckout() {
  const mutation = useMutation({
    mutationFn: async (priceId: string) =>
      (
        await api.call('createCheckoutSession', {
          body: { priceId },
          fallbackMessage: MESSAGES.startCheckoutFailed,
        })
      ).data,
    onSuccess: ({ url }) => openExternal(url),
  });
  // Back from the provider's page: the buttons are usable again, not left spinning.
  useOnReturnFromCache(mutation.reset);
  return mutation;
}

export function useUpdatePlan() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: async (input: { priceId: string; planId: BillingPlan }) =>
      (
        await api.call('updateSubscription', {
          body: input,
          fallbackMessage: MESSAGES.updateSubscriptionFailed,
        })
      ).data,
    onSuccess: (subscription) => refresh(subscription),
  });
}

export function useOpenPortal() {
  const mutation = useMutation({
    mutationFn: async () =>
      (await api.call('createPortalSession', { fallbackMessage: MESSAGES.openBillingPortalFailed })).data,
    onSuccess: ({ url }) => openExternal(url),
  });
  useOnReturnFromCache(mutation.reset);
  return mutation;
}

/** The refund cancelling now would give, without cancelling (`preview: true`). */
export function useCancelPreview(enabled: boolean) {
  return useQuery({
    queryKey: [...billingKey, 'cancel-preview'],
    queryFn: async () => (await api.call('cancelSubscription', { body: { preview: true } })).data,
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function useCancelSubscription() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: async () => (await api.call('cancelSubscription', { body: {} })).data,
    onSuccess: (answer) => refresh(answer.subscription ?? undefined),
  });
}

export async function createPaymentIntent(priceId: string) {
  return (
    await api.call('createPaymentIntent', {
      body: { priceId },
      fallbackMessage: MESSAGES.createPaymentIntentFailed,
    })
  ).data;
}

export async function activateSubscription(input: {
  paymentIntentId: string;
  priceId: string;
  planId: BillingPlan;
}) {
  return (
    await api.call('activateSubscription', {
      body: input,
      fallbackMessage: MESSAGES.activateSubscriptionFailed,
    })
  ).data;
}

export async function verifyCheckoutSession(sessionId: string) {
  return (
    await api.call('verifyCheckoutSession', {
      params: { sessionId },
      fallbackMessage: MESSAGES.verifySubscriptionFailed,
    })
  ).data;
}
