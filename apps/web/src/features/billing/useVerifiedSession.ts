import type { Subscription, VerifiedSession } from '@homesitter/contract';
import { useEffect, useState } from 'react';
import { ApiError } from '../../shared/lib/http';
import { isActive, useRefreshBilling, verifyCheckoutSession } from './api';

/** Backoff between checks while Checkout or its webhook is still on its way: about half a minute in all. */
export const VERIFY_POLL_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];

export type Verification =
  { state: 'checking' } | { state: 'verified'; subscription: Subscription } | { state: 'failed' };

/** Done once the session is complete and its subscription active; until then it is pending. */
function verifiedSubscription(session: VerifiedSession): Subscription | null {
  return session.status === 'complete' && isActive(session.subscription) ? session.subscription : null;
}

/** Checks a Checkout session, again with backoff while it is pending, then gives up (§8 verify failure). */
export function useVerifiedSession(
  sessionId: string | null,
  delaysMs: readonly number[] = VERIFY_POLL_DELAYS_MS,
): Verification {
  const refresh = useRefreshBilling();
  const [verification, setVerification] = useState<Verification>(
    sessionId ? { state: 'checking' } : { state: 'failed' },
  );
  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function attempt(index: number) {
      try {
        const session = await verifyCheckoutSession(sessionId!);
        if (cancelled) return;
        const subscription = verifiedSubscription(session);
        if (subscription) {
          setVerification({ state: 'verified', subscription });
          refresh(subscription);
          return;
        }
        if (session.status === 'expired') return setVerification({ state: 'failed' });
      } catch (error) {
        if (cancelled) return;
        // Not found (another user's or an unknown session) or refused: asking again will not help.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429)
          return setVerification({ state: 'failed' });
      }
      const delay = delaysMs[index];
      if (delay === undefined) return setVerification({ state: 'failed' });
      timer = setTimeout(() => void attempt(index + 1), delay);
    }
    void attempt(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // `refresh` and `delaysMs` are stable for the page's life; a new session id starts over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);
  return verification;
}
