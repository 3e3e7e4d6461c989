import { FREE_EVENTS_BANNER_THRESHOLD } from '@homesitter/contract/runtime';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useBanner, type Banner } from '../../shared/lib/banners';
import { useProfile } from '../user/profile';
import { isActive, useBillingState } from './api';
import { CHANGE_PLAN_PATH } from './links';

/** The banner, or null: only with billing on, no active subscription and at most 50 free events left (§9). */
export function freeEventsBanner(
  remaining: number | undefined,
  billing: ReturnType<typeof useBillingState>['data'],
): Banner | null {
  if (remaining === undefined || remaining > FREE_EVENTS_BANNER_THRESHOLD || !billing) return null;
  if (billing.kind === 'notConfigured') return null;
  if (billing.kind === 'subscribed' && isActive(billing.subscription)) return null;
  const count = Math.max(0, remaining);
  return {
    id: 'free-events',
    order: 3,
    textKey: 'billing:freeBanner.events',
    textOptions: { count },
    to: CHANGE_PLAN_PATH,
    highlight: 'free-events',
    tone: 'warning',
  };
}

/** docs/product.md §9: the free-events banner, with its own wording for 0, 1 and more; it links to change plan. */
export function FreeEventsBanner() {
  const { ready } = useTranslation('billing');
  const remaining = useProfile().data?.remaining_free_events;
  // Asks the server only once the count is low: whether it has billing at all, and whether the user pays.
  const billing = useBillingState(remaining !== undefined && remaining <= FREE_EVENTS_BANNER_THRESHOLD).data;
  const banner = useMemo(
    () => (ready ? freeEventsBanner(remaining, billing) : null),
    [ready, remaining, billing],
  );
  useBanner(banner);
  return null;
}
