import { PUSH_VERIFY_AFTER_LOGIN_MS } from '@homesitter/contract/runtime';
import { useEffect, useSyncExternalStore } from 'react';
import { registerWebPush, subscribeToPermission, webPushPermission } from '../../shared/lib/webPush';
import { useProfile } from '../user/profile';

/** Whether this browser's subscription went through: "alerts appear here" is said only once it did. */
export type WebPushRegistration = 'pending' | 'registered' | 'failed';
let registration: WebPushRegistration = 'pending';
const registrationListeners = new Set<() => void>();
function setRegistration(value: WebPushRegistration) {
  registration = value;
  registrationListeners.forEach((l) => l());
}

export function useWebPushRegistration(): WebPushRegistration {
  return useSyncExternalStore(
    (l) => {
      registrationListeners.add(l);
      return () => registrationListeners.delete(l);
    },
    () => registration,
  );
}

/** Subscribes this browser now, recording the outcome; failures are only logged (docs/product.md §8). */
export function registerThisBrowser(): Promise<void> {
  setRegistration('pending');
  return registerWebPush().then(
    () => setRegistration('registered'),
    (error: unknown) => {
      setRegistration('failed');
      console.warn('web push registration failed', error);
    },
  );
}

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
    const timer = window.setTimeout(() => void registerThisBrowser(), delayMs);
    return () => window.clearTimeout(timer);
  }, [wanted, userId, delayMs]);
}

/** Mounted once in the signed-in layout; renders nothing. */
export function WebPushSync() {
  useWebPush();
  return null;
}
