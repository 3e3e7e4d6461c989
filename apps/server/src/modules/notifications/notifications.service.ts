import { createHash } from 'node:crypto';
import type { NotificationChannels, PushPlatform } from '@homesitter/contract';
import type { PushMessage, PushProvider } from '../../adapters/push/push.js';
import type { SmsSender } from '../../adapters/sms/sms.js';
import type { JobPayloads } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import { derivePreferences } from '../users/users.module.js';
import type { NotificationsRepository, PushTokenTarget } from './notifications.repository.js';

/** What happened: an activity worth an alert, or an answer from the home sitter in the chat. */
export type Notification =
  | {
      kind: 'activity_alert';
      activityUuid: string;
      /** Already in the user's language (the caller composes it). */
      title: string;
      body: string;
      /** A signed snapshot URL that outlives delivery (minutes at least): push image and MMS media. */
      thumbnailUrl?: string;
      /**
       * Only these channels ("text me" in a watch request: `['sms']`), when the user has one of them on;
       * otherwise their usual ones.
       */
      channels?: readonly ('push' | 'sms')[];
      /**
       * Never these channels: the event's own alert already went out by them (a watch request it matched
       * pushes again, replacing that push by its collapse key, but does not text twice).
       */
      skip?: readonly ('push' | 'sms')[];
    }
  | { kind: 'chat_message'; messageUuid: string; title: string; body: string };

export interface NotifyResult {
  /** Devices a push service accepted the push for. */
  pushed: number;
  /** Whether a text went out (to Twilio, or to the log when SMS is not configured). */
  sms: boolean;
}

/** An alert's push to one device, or its text, to try again (`notifications.retry-channel`). */
export type ChannelRetry = JobPayloads['notifications.retry-channel'];

/** The push service for each platform; a missing one is not configured (its devices are skipped). */
export type PushProviders = Partial<Record<PushPlatform, PushProvider>>;

export interface NotificationsServiceDeps {
  repo: NotificationsRepository;
  push: PushProviders;
  sms: SmsSender;
  log: Logger;
  /** How long one provider call may take before `notify` moves on without it. */
  timeoutMs: number;
  /** The Web Push application server key browsers subscribe with. */
  webPushPublicKey: string;
  /** Public https address of the app; texts end with a link to its chat when set. */
  appUrl?: string | undefined;
  /**
   * Queues a failed channel of an alert to be tried again (the module sends `notifications.retry-channel`).
   * Absent: a failed channel is only logged.
   */
  retry?: ((job: ChannelRetry) => Promise<void>) | undefined;
  /** Whether an alert is still wanted when its retry runs (camera not muted or private, activity kept). */
  alertWanted?: ((userId: string, activityId: string) => Promise<boolean>) | undefined;
  /** How long a failed channel keeps being tried (NOTIFY_RETRY_WINDOW_SECONDS). */
  retryWindowSeconds?: number;
}

export interface NotificationsService {
  /**
   * Pushes to every enabled device of the user and, for activity alerts, texts them (MMS with the
   * thumbnail), as their notification settings allow. Never throws because a provider failed: failures
   * are logged and the result says what went out. Dead tokens are disabled on the way.
   */
  notify(userId: string, notification: Notification): Promise<NotifyResult>;
  /**
   * Tries one failed channel of an alert again, as the user's settings are now; throws when it failed again
   * for a passing reason (the job retries), returns when it went out or never will (dropped with a log line).
   */
  retryChannel?(job: ChannelRetry): Promise<void>;
  readonly webPushPublicKey: string;
  /** What this server can deliver by: a text only with a real SMS provider, not the log stand-in. */
  readonly channels: NotificationChannels;
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Push payloads are capped near 4 KB by every service; these keep title, body and data well inside. */
const MAX_TITLE_CHARS = 120;
const MAX_BODY_CHARS = 1000;

const NOTHING: NotifyResult = { pushed: 0, sms: false };

function clip(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

class ProviderTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
    this.name = 'ProviderTimeout';
  }
}

/** The provider's answer, or a ProviderTimeout once `ms` have passed (the call itself runs on). */
function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ProviderTimeout(what, ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether a failed provider call may succeed later: no answer (connection refused or reset, timeout), a 5xx,
 * or throttling (429). A 4xx other than that (an invalid token or number, a refused message) will not.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ProviderTimeout) return true;
  if (!(error instanceof Error)) return false;
  const { status } = error as Error & { status?: number };
  if (status === undefined || status === 0) return true;
  return status >= 500 || status === 429 || status === 408;
}

/** A UUID made from the retry's alert, channel and target: one retry job per target, ever. */
export function retryJobId(
  job: Pick<ChannelRetry, 'activityId' | 'channel' | 'tokenId' | 'phoneHash'>,
): string {
  const hex = createHash('sha256')
    .update(`${job.activityId}:${job.channel}:${job.tokenId ?? job.phoneHash ?? ''}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const hashPhone = (phone: string) => createHash('sha256').update(phone).digest('hex');

function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const { status, reason, code } = error as Error & { status?: number; reason?: string; code?: unknown };
  return {
    error: error.message,
    ...(status ? { status } : {}),
    ...(reason ? { reason } : {}),
    ...(code ? { code } : {}),
  };
}

/** Notification delivery: push to the user's devices (Web Push, FCM, APNs) and SMS/MMS (Twilio). */
export function createNotificationsService(deps: NotificationsServiceDeps): NotificationsService {
  const { repo, log, timeoutMs } = deps;

  function pushMessage(n: Notification, language: string): PushMessage {
    const common = { title: clip(n.title, MAX_TITLE_CHARS), body: clip(n.body, MAX_BODY_CHARS), language };
    if (n.kind === 'activity_alert') {
      return {
        ...common,
        data: { notification_type: 'ACTIVITY_ALERT', activity_uuid: n.activityUuid },
        collapseKey: n.activityUuid,
        ...(n.thumbnailUrl ? { imageUrl: n.thumbnailUrl } : {}),
      };
    }
    return {
      ...common,
      data: { notification_type: 'CHAT_MESSAGE', chat_message_id: n.messageUuid },
      collapseKey: n.messageUuid,
    };
  }

  function smsBody(n: Notification): string {
    const text = `${clip(n.title, MAX_TITLE_CHARS)}: ${clip(n.body, MAX_BODY_CHARS)}`;
    return deps.appUrl ? `${text}\n${deps.appUrl}/chat` : text;
  }

  /**
   * After a failed first try: queues the retry when the failure may pass. A timed-out call may still go
   * out, so the retry waits for the call itself to end (the adapters bound it by the same timeout) and is
   * queued only when it failed.
   */
  function retryLater(work: Promise<unknown>, error: unknown, job: () => ChannelRetry | undefined): void {
    const { retry } = deps;
    if (!retry) return;
    const queue = (err: unknown) => {
      const payload = job();
      if (!payload || !isTransient(err)) return;
      retry(payload).catch((e: unknown) =>
        log.error(
          { activityId: payload.activityId, channel: payload.channel, ...describeError(e) },
          'could not queue a retry',
        ),
      );
    };
    if (error instanceof ProviderTimeout) work.then(() => undefined, queue);
    else queue(error);
  }

  /** Pushes to every token; answers how many went out and which tokens are dead. */
  async function pushAll(
    userId: string,
    tokens: PushTokenTarget[],
    message: PushMessage,
    retryOf?: (tokenId: string) => ChannelRetry | undefined,
  ) {
    const dead: PushTokenTarget[] = [];
    let pushed = 0;
    await Promise.all(
      tokens.map(async (token) => {
        const provider = deps.push[token.platform];
        if (!provider) {
          log.debug(
            { userId, tokenId: token.id, platform: token.platform },
            'push skipped: no provider configured',
          );
          return;
        }
        const work = provider.send(
          { token: token.token, platform: token.platform, isSandbox: token.isSandbox },
          message,
        );
        try {
          const outcome = await withTimeout(work, timeoutMs, provider.kind);
          if (outcome === 'sent') pushed += 1;
          else dead.push(token);
        } catch (error) {
          log.warn(
            { userId, tokenId: token.id, provider: provider.kind, ...describeError(error) },
            'push failed',
          );
          if (retryOf) retryLater(work, error, () => retryOf(token.id));
        }
      }),
    );
    return { pushed, dead };
  }

  async function text(
    userId: string,
    to: string,
    n: Notification & { kind: 'activity_alert' },
    retry?: ChannelRetry,
  ): Promise<boolean> {
    const work = deps.sms.send({
      to,
      body: smsBody(n),
      ...(n.thumbnailUrl ? { mediaUrl: n.thumbnailUrl } : {}),
    });
    try {
      await withTimeout(work, timeoutMs, deps.sms.kind);
      return true;
    } catch (error) {
      log.warn({ userId, provider: deps.sms.kind, ...describeError(error) }, 'text message failed');
      if (retry) retryLater(work, error, () => retry);
      return false;
    }
  }

  /** The retry job of one channel of an alert, with what the alert said. */
  function retryJob(
    userId: string,
    n: Notification & { kind: 'activity_alert' },
    target: { channel: 'push'; tokenId: string } | { channel: 'sms'; phoneHash: string },
  ): ChannelRetry {
    return {
      userId,
      activityId: n.activityUuid,
      ...target,
      title: n.title,
      body: n.body,
      ...(n.thumbnailUrl ? { thumbnailUrl: n.thumbnailUrl } : {}),
      alertedAt: new Date().toISOString(),
    };
  }

  const retryWindowMs = (deps.retryWindowSeconds ?? 3600) * 1000;

  async function retryChannel(job: ChannelRetry): Promise<void> {
    const { userId, activityId, channel } = job;
    const drop = (why: string) => log.info({ userId, activityId, channel }, `alert retry dropped: ${why}`);
    if (Date.now() - Date.parse(job.alertedAt) > retryWindowMs) return drop('the alert is stale');
    if (deps.alertWanted && !(await deps.alertWanted(userId, activityId)))
      return drop('the camera is muted or private now, or the activity is gone');
    const recipient = await repo.findRecipient(userId);
    if (!recipient || recipient.notificationsStatus === 'ALL_DISABLED') return drop('notifications are off');
    const preferences = derivePreferences(recipient);
    const n: Notification & { kind: 'activity_alert' } = {
      kind: 'activity_alert',
      activityUuid: activityId,
      title: job.title,
      body: job.body,
      ...(job.thumbnailUrl ? { thumbnailUrl: job.thumbnailUrl } : {}),
    };
    try {
      if (channel === 'push') {
        if (!preferences.push_enabled) return drop('push is off');
        const token = job.tokenId ? await repo.findEnabledPushToken(userId, job.tokenId) : undefined;
        if (!token) return drop('the device is no longer registered');
        const provider = deps.push[token.platform];
        if (!provider) return drop('no push provider for the device');
        // Not raced against a timer: the adapter bounds the call, and its end says whether it went out.
        const outcome = await provider.send(
          { token: token.token, platform: token.platform, isSandbox: token.isSandbox },
          pushMessage(n, recipient.preferredLanguage),
        );
        if (outcome === 'dead-token') {
          await repo.disableDeadTokens(userId, [token]);
          return drop('the device token is dead');
        }
      } else {
        if (!preferences.sms_mms_enabled) return drop('texts are off');
        const phone = recipient.phoneNumber;
        if (!phone || hashPhone(phone) !== job.phoneHash) return drop('the phone number changed');
        await deps.sms.send({
          to: phone,
          body: smsBody(n),
          ...(n.thumbnailUrl ? { mediaUrl: n.thumbnailUrl } : {}),
        });
      }
      log.info({ userId, activityId, channel }, 'alert retry sent');
    } catch (error) {
      if (isTransient(error)) throw error;
      log.warn({ userId, activityId, channel, ...describeError(error) }, 'alert retry refused; dropped');
    }
  }

  return {
    webPushPublicKey: deps.webPushPublicKey,
    channels: {
      web_push: Boolean(deps.push.web),
      android_push: Boolean(deps.push.android),
      ios_push: Boolean(deps.push.ios),
      sms_mms: deps.sms.kind !== 'log',
    },

    async notify(userId: string, n: Notification): Promise<NotifyResult> {
      if (!UUID.test(userId)) {
        log.warn({ userId }, 'notification dropped: not a user id');
        return NOTHING;
      }
      const recipient = await repo.findRecipient(userId);
      if (!recipient) {
        log.debug({ userId }, 'notification dropped: no such user');
        return NOTHING;
      }
      // "All off" wins over any channel preference left behind.
      if (recipient.notificationsStatus === 'ALL_DISABLED') return NOTHING;
      const preferences = derivePreferences(recipient);
      // Texts are for alerts only: a chat answer is read in the app.
      const phone = preferences.sms_mms_enabled ? recipient.phoneNumber : null;

      // Only alerts are tried again: a chat answer is in the chat, where the user reads it anyway.
      const alert = n.kind === 'activity_alert' ? n : undefined;
      const skipped = (c: 'push' | 'sms') => alert?.skip?.includes(c) ?? false;
      const usable = {
        push: preferences.push_enabled && !skipped('push'),
        sms: Boolean(alert && phone) && !skipped('sms'),
      };
      const asked = alert?.channels?.filter((c) => usable[c]) ?? [];
      const use = asked.length > 0 ? { push: asked.includes('push'), sms: asked.includes('sms') } : usable;
      const [push, sms] = await Promise.all([
        use.push
          ? repo
              .enabledPushTokens(userId)
              .then((tokens) =>
                pushAll(
                  userId,
                  tokens,
                  pushMessage(n, recipient.preferredLanguage),
                  alert && ((tokenId) => retryJob(userId, alert, { channel: 'push', tokenId })),
                ),
              )
          : { pushed: 0, dead: [] },
        alert && phone && use.sms
          ? text(
              userId,
              phone,
              alert,
              retryJob(userId, alert, { channel: 'sms', phoneHash: hashPhone(phone) }),
            )
          : false,
      ]);

      let disabled = 0;
      if (push.dead.length > 0) {
        try {
          disabled = await repo.disableDeadTokens(userId, push.dead);
        } catch (error) {
          // What went out went out; a token left enabled is only tried (and found dead) again next time.
          log.error({ userId, ...describeError(error) }, 'could not disable dead push tokens');
        }
      }
      log.info({ userId, kind: n.kind, pushed: push.pushed, deadTokens: disabled, sms }, 'notification sent');
      return { pushed: push.pushed, sms };
    },

    retryChannel,

    async close() {
      await Promise.all(Object.values(deps.push).map((p) => p.close()));
    },
  };
}
