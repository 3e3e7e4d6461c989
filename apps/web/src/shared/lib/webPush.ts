import { api } from './api';
import { ApiError } from './http';
import { isNativeApp } from './native';

/** The service worker that shows pushes (apps/web/public/sw.js), served from the site root. */
export const SERVICE_WORKER_URL = '/sw.js';

export type WebPushPermission = NotificationPermission | 'unsupported';

/**
 * Web Push needs a service worker, the Push API and notifications, in a secure context. Inside the native
 * shell the phone's own push (APNs/FCM) is used instead.
 */
export function isWebPushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    !isNativeApp()
  );
}

// The notification permission as a tiny store: it changes when the user answers the prompt here, or in the
// browser's site settings (seen when the page becomes visible again).
const listeners = new Set<() => void>();

export function webPushPermission(): WebPushPermission {
  return isWebPushSupported() ? Notification.permission : 'unsupported';
}

export function subscribeToPermission(listener: () => void): () => void {
  listeners.add(listener);
  const onVisible = () => {
    if (document.visibilityState === 'visible') listener();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    listeners.delete(listener);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/** Asks the browser for permission (call it from a click: browsers ignore prompts nobody asked for). */
export async function requestWebPushPermission(): Promise<WebPushPermission> {
  if (!isWebPushSupported()) return 'unsupported';
  const answer = await Notification.requestPermission();
  listeners.forEach((l) => l());
  return answer;
}

/** The VAPID key as the bytes `pushManager.subscribe` takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(current: ArrayBuffer | null | undefined, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((b, i) => b === wanted[i]);
}

/** The push token the server stores for this browser: the subscription as JSON. */
export function subscriptionToken(subscription: PushSubscription): string {
  return JSON.stringify(subscription.toJSON());
}

/**
 * Subscribes this browser (or keeps its subscription when it was made with the current server key) and
 * registers it as the signed-in user's `web` push token. Only call it with permission granted.
 */
export async function registerWebPush(): Promise<PushSubscription> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const key = applicationServerKey((await api.call('getVapidPublicKey')).data.public_key);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription bound to another server key (the server's keys were replaced) can never be pushed to.
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await api.call('registerPushToken', {
    body: { token: subscriptionToken(subscription), platform: 'web', is_sandbox: false },
  });
  return subscription;
}

/**
 * At sign-out (docs/product.md §4 "Push state"): the server stops pushing to this browser, then the browser drops the
 * subscription. Throws when the server could not be told, so sign-out can stop and say so; a token the
 * server does not know (4xx) has nothing to disable.
 */
export async function disableWebPush(): Promise<void> {
  if (!isWebPushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  try {
    await api.call('disablePushToken', { body: { token: subscriptionToken(subscription), platform: 'web' } });
  } catch (error) {
    const nothingToDisable = error instanceof ApiError && error.status >= 400 && error.status < 500;
    if (!nothingToDisable) throw error;
  }
  await subscription.unsubscribe().catch(() => false);
}
