import { PUSH_VERIFY_AFTER_LOGIN_MS } from '@homesitter/contract/runtime';
import { useEffect, useSyncExternalStore } from 'react';
import { registerWebPush, subscribeToPermission, webPushPermission } from '../../shared/lib/webPush';
import { useProfile } from '../user/profile';

export function useWebPushPermission() {
  return useSyncExternalStore(subscribeToPermission, webPushPermission, () => 'unsupported' as const);
}

/**
 * Keeps this browser subscribed to Web Push while the signed-in user wants push alerts and has allowed
 * notifications here. Registration waits a moment after sign-in (docs/product.md §9: 1.5 s), so it never competes
 * with the first screen's requests. Failures are only logged (docs/product.md §8: push errors are only logged).
 */
export function useWebPush(delayMs: number = PUSH_VERIFY_AFTER_LOGIN_MS) {
  const profile = useProfile().data;
  const permission = useWebPushPermission();
  const wanted =
    !!profile &&
    profile.notifications_status !== 'ALL_DISABLED' &&
    profile.notification_preferences.push_enabled &&
    permission === 'granted';
  const userId = profile?.user_uuid;

  useEffect(() => {
    if (!wanted || !userId) return;
    const timer = window.setTimeout(() => {
      registerWebPush().catch((error: unknown) => console.warn('web push registration failed', error));
    }, delayMs);
    return () => window.clearTimeout(timer);
  }, [wanted, userId, delayMs]);
}

/** Mounted once in the signed-in layout; renders nothing. */
export function WebPushSync() {
  useWebPush();
  return null;
}
