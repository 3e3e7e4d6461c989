import { z } from 'zod';

/**
 * docs/product.md §3 "Push notification data": what every push carries besides its title and body, so a tap opens the
 * right screen. Native shells and the web service worker read the same fields.
 */
export const pushNotificationDataSchema = z.discriminatedUnion('notification_type', [
  z.object({ notification_type: z.literal('ACTIVITY_ALERT'), activity_uuid: z.string() }),
  z.object({ notification_type: z.literal('CHAT_MESSAGE'), chat_message_id: z.string() }),
]);
export type PushNotificationData = z.infer<typeof pushNotificationDataSchema>;

/** An uncompressed P-256 point (65 bytes, first byte 0x04) in unpadded base64url: 87 characters, "B…". */
const P256DH = /^B[A-Za-z0-9_-]{86}$/;
/** 16 random bytes in unpadded base64url. */
const AUTH_SECRET = /^[A-Za-z0-9_-]{22}$/;

/**
 * A push service endpoint: https on the default port, a DNS name (no IP literal, no localhost), no
 * credentials. The server POSTs to it, so anything that could aim those requests at a private address or
 * an odd port is refused.
 */
function isPushServiceUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    url.username === '' &&
    url.password === '' &&
    z.regexes.domain.test(url.hostname) &&
    url.hostname !== 'localhost' &&
    !url.hostname.endsWith('.localhost')
  );
}

const unpadded = (v: string) => v.replace(/=+$/, '');

/** The browser's `PushSubscription.toJSON()`, as a web push token. */
export const webPushSubscriptionSchema = z.object({
  endpoint: z.string().max(2048).refine(isPushServiceUrl, 'endpoint must be an https push service URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().transform(unpadded).pipe(z.string().regex(P256DH, 'keys.p256dh is not a P-256 key')),
    auth: z.string().transform(unpadded).pipe(z.string().regex(AUTH_SECRET, 'keys.auth is not 16 bytes')),
  }),
});
export type WebPushSubscription = z.output<typeof webPushSubscriptionSchema>;

/**
 * The one stored form of a web push token: endpoint and keys only, in a fixed order. The same subscription
 * sent twice (keys reordered, an expiry added) is then the same token, so registering, disabling and
 * verifying all find it.
 */
export function canonicalWebPushToken(token: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(token);
  } catch {
    return undefined;
  }
  const parsed = webPushSubscriptionSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { endpoint, keys } = parsed.data;
  return JSON.stringify({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
}

/** `GET /api/push/vapid-public-key`: the application server key a browser subscribes with. */
/**
 * The channels this server can deliver an alert by: a switch for one it cannot says so and is off
 * (issue 31). SMS/MMS needs an SMS provider (Twilio); push to phones needs FCM (Android) or APNs (iOS).
 */
export const notificationChannelsSchema = z.object({
  web_push: z.boolean().describe('Web Push to browsers (always, with VAPID keys)'),
  android_push: z.boolean().describe('Push to the Android app (FCM configured)'),
  ios_push: z.boolean().describe('Push to the iOS app (APNs configured)'),
  sms_mms: z.boolean().describe('Texts with the alert (an SMS provider configured)'),
});
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;

export const vapidPublicKeySchema = z.object({
  public_key: z.string().describe('VAPID public key, an uncompressed P-256 point in base64url'),
});
