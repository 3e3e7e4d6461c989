import type { Agent } from 'node:https';
import webpush from 'web-push';
import {
  isUrgent,
  PUSH_TTL_SECONDS,
  PushProviderError,
  shortCollapseKey,
  type PushMessage,
  type PushProvider,
  type PushTarget,
} from './push.js';
import type { VapidKeys } from './vapid-keys.js';

export interface WebPushOptions {
  vapid: VapidKeys;
  /** Socket timeout of one request to a push service. */
  timeoutMs: number;
  /** An https.Agent to send through (tests pass one that trusts their local server's certificate). */
  agent?: Agent;
}

/** What the service worker (`apps/web/public/sw.js`) reads from a push. */
export function webPushPayload(message: PushMessage): string {
  return JSON.stringify({
    title: message.title,
    body: message.body,
    ...(message.imageUrl ? { image: message.imageUrl } : {}),
    ...(message.collapseKey ? { tag: message.collapseKey } : {}),
    ...(message.language ? { lang: message.language } : {}),
    data: message.data,
  });
}

/**
 * The stored subscription. Its endpoint and keys were checked strictly when the browser registered it
 * (contract `webPushSubscriptionSchema`); here only its shape matters.
 */
function parseSubscription(token: string): webpush.PushSubscription | undefined {
  try {
    const value = JSON.parse(token) as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
    const { endpoint, keys } = value;
    if (typeof endpoint !== 'string' || !/^https:\/\//.test(endpoint)) return undefined;
    if (typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string') return undefined;
    return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
  } catch {
    return undefined;
  }
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and the aes128gcm payload encryption (RFC 8291), through the
 * `web-push` package. The token is the browser's subscription: the push service's endpoint and the keys
 * the payload is encrypted to.
 */
export function createWebPushProvider(options: WebPushOptions): PushProvider {
  const { vapid } = options;
  return {
    kind: 'webpush',
    async send(target: PushTarget, message: PushMessage) {
      const subscription = parseSubscription(target.token);
      // A token that is not a subscription can never be delivered to.
      if (!subscription) return 'dead-token';
      try {
        await webpush.sendNotification(subscription, webPushPayload(message), {
          vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: PUSH_TTL_SECONDS,
          urgency: isUrgent(message) ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
          timeout: options.timeoutMs,
          ...(message.collapseKey ? { topic: shortCollapseKey(message.collapseKey, 32) } : {}),
          ...(options.agent ? { agent: options.agent } : {}),
        });
        return 'sent';
      } catch (error) {
        if (error instanceof webpush.WebPushError) {
          // RFC 8030 §7.3: the subscription expired or was removed; it will not come back.
          if (error.statusCode === 404 || error.statusCode === 410) return 'dead-token';
          throw new PushProviderError('webpush', 'the push service refused the message', error.statusCode);
        }
        throw new PushProviderError('webpush', error instanceof Error ? error.message : String(error));
      }
    },
    async close() {},
  };
}
