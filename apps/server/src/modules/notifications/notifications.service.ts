import type { PushPlatform } from '@homesitter/contract';
import type { PushMessage, PushProvider } from '../../adapters/push/push.js';
import type { SmsSender } from '../../adapters/sms/sms.js';
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
    }
  | { kind: 'chat_message'; messageUuid: string; title: string; body: string };

export interface NotifyResult {
  /** Devices a push service accepted the push for. */
  pushed: number;
  /** Whether a text went out (to Twilio, or to the log when SMS is not configured). */
  sms: boolean;
}

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
}

export interface NotificationsService {
  /**
   * Pushes to every enabled device of the user and, for activity alerts, texts them (MMS with the
   * thumbnail), as their notification settings allow. Never throws because a provider failed: failures
   * are logged and the result says what went out. Dead tokens are disabled on the way.
   */
  notify(userId: string, notification: Notification): Promise<NotifyResult>;
  readonly webPushPublicKey: string;
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

  /** Pushes to every token; answers how many went out and which tokens are dead. */
  async function pushAll(userId: string, tokens: PushTokenTarget[], message: PushMessage) {
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
        try {
          const outcome = await withTimeout(
            provider.send(
              { token: token.token, platform: token.platform, isSandbox: token.isSandbox },
              message,
            ),
            timeoutMs,
            provider.kind,
          );
          if (outcome === 'sent') pushed += 1;
          else dead.push(token);
        } catch (error) {
          log.warn(
            { userId, tokenId: token.id, provider: provider.kind, ...describeError(error) },
            'push failed',
          );
        }
      }),
    );
    return { pushed, dead };
  }

  async function text(
    userId: string,
    to: string,
    n: Notification & { kind: 'activity_alert' },
  ): Promise<boolean> {
    try {
      await withTimeout(
        deps.sms.send({ to, body: smsBody(n), ...(n.thumbnailUrl ? { mediaUrl: n.thumbnailUrl } : {}) }),
        timeoutMs,
        deps.sms.kind,
      );
      return true;
    } catch (error) {
      log.warn({ userId, provider: deps.sms.kind, ...describeError(error) }, 'text message failed');
      return false;
    }
  }

  return {
    webPushPublicKey: deps.webPushPublicKey,

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

      const [push, sms] = await Promise.all([
        preferences.push_enabled
          ? repo
              .enabledPushTokens(userId)
              .then((tokens) => pushAll(userId, tokens, pushMessage(n, recipient.preferredLanguage)))
          : { pushed: 0, dead: [] },
        n.kind === 'activity_alert' && phone ? text(userId, phone, n) : false,
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

    async close() {
      await Promise.all(Object.values(deps.push).map((p) => p.close()));
    },
  };
}
