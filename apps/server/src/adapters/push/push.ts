import { createHash } from 'node:crypto';
import type { PushNotificationData, PushPlatform } from '@homesitter/contract';

/** One device (or browser) to push to: a stored push token. */
export interface PushTarget {
  /** The platform's device token; for `web`, the browser's PushSubscription as JSON. */
  token: string;
  platform: PushPlatform;
  /** iOS development builds get their tokens from the APNs sandbox. */
  isSandbox: boolean;
}

/** What a push says and where a tap leads (docs/product.md §3 "Push notification data"). */
export interface PushMessage {
  title: string;
  body: string;
  data: PushNotificationData;
  /** A snapshot to show with the notification; must be reachable by the device (a signed URL). */
  imageUrl?: string;
  /** Pushes with the same key replace each other on the device (one alert per coalesced activity). */
  collapseKey?: string;
  /** The user's language, a hint for the device (web notifications' `lang`). */
  language?: string;
}

/**
 * The push port: one implementation per service (Web Push, FCM, APNs), each in a file beside this one.
 * `send` answers `dead-token` when the service says the token will never work again (the caller disables
 * it) and throws a `PushProviderError` for anything else that went wrong (network, quota, outage).
 */
export interface PushProvider {
  readonly kind: 'webpush' | 'fcm' | 'apns';
  send(target: PushTarget, message: PushMessage): Promise<'sent' | 'dead-token'>;
  /** Closes kept-open connections (APNs holds an HTTP/2 session). */
  close(): Promise<void>;
}

/** A push that did not go out and may go out on a later try. */
export class PushProviderError extends Error {
  constructor(
    readonly provider: PushProvider['kind'],
    message: string,
    /** The service's HTTP status, when it answered. */
    readonly status?: number,
    /** The service's own reason code (`UNAVAILABLE`, `TooManyRequests`…), when it gave one. */
    readonly reason?: string,
  ) {
    super(`${provider}: ${message}${status ? ` (${status}${reason ? ` ${reason}` : ''})` : ''}`);
    this.name = 'PushProviderError';
  }
}

/** How long a push may wait on the service for an offline device: alerts are stale after a few hours. */
export const PUSH_TTL_SECONDS = 4 * 3600;

/** Alerts wake the device at once; chat answers may wait for the next convenient moment. */
export function isUrgent(message: PushMessage): boolean {
  return message.data.notification_type === 'ACTIVITY_ALERT';
}

/**
 * A collapse key in at most `maxLength` URL-safe characters (Web Push topics allow 32, APNs collapse ids
 * 64 bytes): kept as is when it fits, else a SHA-256 digest of it, so equal keys stay equal.
 */
export function shortCollapseKey(key: string, maxLength: number): string {
  if (key.length <= maxLength && /^[A-Za-z0-9_-]+$/.test(key)) return key;
  return createHash('sha256').update(key).digest('base64url').slice(0, maxLength);
}

/** The data fields as the flat string map FCM and APNs carry next to the notification. */
export function dataFields(message: PushMessage): Record<string, string> {
  const fields: Record<string, string> = { ...message.data };
  if (message.imageUrl) fields.image_url = message.imageUrl;
  return fields;
}
