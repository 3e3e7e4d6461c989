import { createApnsProvider, loadApnsKey } from '../../adapters/push/apns.push.js';
import { createFcmProvider, loadFcmServiceAccount } from '../../adapters/push/fcm.push.js';
import { defaultVapidSubject, loadVapidKeys } from '../../adapters/push/vapid-keys.js';
import { createWebPushProvider } from '../../adapters/push/webpush.push.js';
import { createLogSms } from '../../adapters/sms/log.sms.js';
import type { SmsSender } from '../../adapters/sms/sms.js';
import { createTwilioSms } from '../../adapters/sms/twilio.sms.js';
import { ConfigError, type Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/client.js';
import type { Logger } from '../../platform/logger.js';
import { createNotificationsRepository } from './notifications.repository.js';
import {
  createNotificationsService,
  type NotificationsService,
  type NotificationsServiceDeps,
  type PushProviders,
} from './notifications.service.js';

/** A provider's half-done configuration stops the start, naming what is missing. */
function configured<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function smsFromConfig(config: Config, log: Logger): SmsSender {
  if (!config.TWILIO_ACCOUNT_SID && !config.TWILIO_AUTH_TOKEN) return createLogSms(log);
  if (!config.TWILIO_ACCOUNT_SID || !config.TWILIO_AUTH_TOKEN) {
    throw new Error('Twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN together');
  }
  return createTwilioSms({
    accountSid: config.TWILIO_ACCOUNT_SID,
    authToken: config.TWILIO_AUTH_TOKEN,
    from: config.TWILIO_FROM,
    messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID,
    baseUrl: config.TWILIO_BASE_URL,
    timeoutMs: config.NOTIFY_TIMEOUT_MS,
  });
}

/**
 * The notifications service from the environment: Web Push always (VAPID keys from `VAPID_*` or
 * `DATA_DIR/vapid.json`), FCM when `FCM_*` is set, APNs when `APNS_*` is set, Twilio when `TWILIO_*` is set
 * (else texts are only logged). Throws a ConfigError for a half-configured provider.
 */
export function createNotificationsFromConfig(
  config: Config,
  deps: {
    db: Db;
    log: Logger;
    retry?: NotificationsServiceDeps['retry'];
    alertWanted?: NotificationsServiceDeps['alertWanted'];
  },
): NotificationsService {
  const timeoutMs = config.NOTIFY_TIMEOUT_MS;
  const vapid = configured(() =>
    loadVapidKeys({
      publicKey: config.VAPID_PUBLIC_KEY,
      privateKey: config.VAPID_PRIVATE_KEY,
      subject: config.VAPID_SUBJECT ?? defaultVapidSubject(config.PUBLIC_URL, config.MAIL_FROM),
      dataDir: config.DATA_DIR,
    }),
  );
  const fcmAccount = configured(() =>
    loadFcmServiceAccount({
      projectId: config.FCM_PROJECT_ID,
      clientEmail: config.FCM_CLIENT_EMAIL,
      privateKey: config.FCM_PRIVATE_KEY,
      file: config.FCM_SERVICE_ACCOUNT_FILE,
    }),
  );
  const apnsKey = configured(() =>
    loadApnsKey({
      keyId: config.APNS_KEY_ID,
      teamId: config.APNS_TEAM_ID,
      privateKey: config.APNS_PRIVATE_KEY,
      privateKeyFile: config.APNS_PRIVATE_KEY_FILE,
      bundleId: config.APNS_BUNDLE_ID,
    }),
  );
  const push: PushProviders = { web: createWebPushProvider({ vapid, timeoutMs }) };
  if (fcmAccount) {
    push.android = createFcmProvider({
      account: fcmAccount,
      tokenUrl: config.FCM_TOKEN_URL,
      baseUrl: config.FCM_BASE_URL,
      timeoutMs,
    });
  }
  if (apnsKey) push.ios = createApnsProvider({ ...apnsKey, baseUrl: config.APNS_BASE_URL, timeoutMs });
  const sms = configured(() => smsFromConfig(config, deps.log));
  deps.log.debug(
    { push: Object.entries(push).map(([platform, p]) => `${platform}:${p.kind}`), sms: sms.kind },
    'notification providers',
  );
  return createNotificationsService({
    repo: createNotificationsRepository(deps.db),
    push,
    sms,
    log: deps.log,
    timeoutMs,
    webPushPublicKey: vapid.publicKey,
    // A link in a text is only worth sending when it leads somewhere from a phone.
    appUrl: config.PUBLIC_URL.startsWith('https://') ? config.PUBLIC_URL : undefined,
    retry: deps.retry,
    alertWanted: deps.alertWanted,
    retryWindowSeconds: config.NOTIFY_RETRY_WINDOW_SECONDS,
  });
}
