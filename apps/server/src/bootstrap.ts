import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Fanout } from './adapters/fanout/fanout.js';
import { createInProcessFanout } from './adapters/fanout/inprocess.fanout.js';
import { createRedisFanout } from './adapters/fanout/redis.fanout.js';
import { createLlmFromConfig } from './adapters/llm/from-config.js';
import type { Llm } from './adapters/llm/llm.js';
import type { Mailer } from './adapters/mail/mailer.js';
import { createOutboxMailer } from './adapters/mail/outbox.mailer.js';
import { createSmtpMailer } from './adapters/mail/smtp.mailer.js';
import { createStorageFromConfig, loadMediaSecret } from './adapters/storage/from-config.js';
import type { ObjectStorage } from './adapters/storage/storage.js';
import { createVisionFromConfig } from './adapters/vision/from-config.js';
import type { VisionEngine } from './adapters/vision/vision.js';
import { loadSigningKey, type SigningKey } from './modules/auth/tokens.js';
import { createMediaSigner, type MediaSigner } from './modules/media/media.signer.js';
import type { Config } from './platform/config.js';
import { createDatabase, pgliteDirFor, type Database } from './platform/db/client.js';
import { createEventBus, type EventBus } from './platform/events.js';
import { createLogger, type Logger } from './platform/logger.js';
import { serverPath } from './platform/paths.js';
import { createSecretBox, loadSecretsKey, type SecretBox } from './platform/secrets.js';

export interface Limits {
  /** Per-IP calls a minute to the auth endpoints worth guessing at. */
  authPerIpPerMinute: number;
  /** Sign-in attempts per email address in 15 minutes. */
  signInPerEmail: number;
}

export const DEFAULT_LIMITS: Limits = { authPerIpPerMinute: 30, signInPerEmail: 10 };

/**
 * Everything the server talks to or keeps outside itself, built from the config in one place
 * (`createAdapters`); tests pass their own for any of them.
 */
export interface Adapters {
  config: Config;
  log: Logger;
  database: Database;
  mailer: Mailer;
  signingKey: SigningKey;
  adminToken: string;
  limits: Limits;
  /** Built web app to serve, if any. */
  webDistDir: string | undefined;
  /** The in-process event bus. */
  events: EventBus;
  /** Realtime fan-out across instances: Redis with `REDIS_URL`, else in-process. */
  fanout: Fanout;
  /** Signs and checks the URLs of media served by this server (MEDIA_SECRET or DATA_DIR/media.key). */
  mediaSigner: MediaSigner;
  /** Object storage for media: S3_* or DATA_DIR/media. */
  storage: ObjectStorage;
  /** AES-256 box for secrets at rest (SECRETS_KEY or DATA_DIR/secrets.key). */
  secrets: SecretBox;
  /** Object and face detection (its worker thread and models load on the first image, not at start). */
  vision: VisionEngine;
  /** The configured language model, or undefined (the built-in composer answers alone). */
  llm: Llm | undefined;
}

/** What a caller may give instead of having it built: any adapter, or the raw keys some are made from. */
export type GivenAdapters = Partial<Adapters> & {
  /** HMAC key of media URLs, instead of MEDIA_SECRET / DATA_DIR/media.key. */
  mediaSecret?: string;
  /** Key of the secret box, instead of SECRETS_KEY / DATA_DIR/secrets.key. */
  secretsKey?: Buffer;
};

/** The admin token from `ADMIN_TOKEN`, else from `DATA_DIR/admin-token`, created on first start (0600). */
export function loadAdminToken(config: Config): string {
  if (config.ADMIN_TOKEN) return config.ADMIN_TOKEN;
  const file = join(config.DATA_DIR, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

/** Every adapter from the config, except those given; the database is migrated. */
export async function createAdapters(config: Config, given: GivenAdapters = {}): Promise<Adapters> {
  const log = given.log ?? createLogger(config.LOG_LEVEL);
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const database = given.database ?? (await createMigratedDatabase(config.DATABASE_URL, dataDir, log));
  const mediaSigner =
    given.mediaSigner ??
    createMediaSigner(given.mediaSecret ?? loadMediaSecret(config.MEDIA_SECRET, dataDir), config.PUBLIC_URL);
  return {
    config,
    log,
    database,
    mailer:
      given.mailer ??
      (config.SMTP_URL
        ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
        : createOutboxMailer(join(dataDir, 'outbox'), config.MAIL_FROM, log)),
    signingKey:
      given.signingKey ?? (await loadSigningKey(config.AUTH_PRIVATE_KEY, join(dataDir, 'auth-key.pem'))),
    adminToken: given.adminToken ?? loadAdminToken({ ...config, DATA_DIR: dataDir }),
    limits: given.limits ?? { ...DEFAULT_LIMITS, authPerIpPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE },
    webDistDir:
      'webDistDir' in given
        ? given.webDistDir
        : config.WEB_DIST_DIR
          ? resolve(config.WEB_DIST_DIR)
          : serverPath('..', 'web', 'dist'),
    events: given.events ?? createEventBus(log),
    fanout:
      given.fanout ?? (config.REDIS_URL ? createRedisFanout(config.REDIS_URL, log) : createInProcessFanout()),
    mediaSigner,
    storage: given.storage ?? createStorageFromConfig(config, mediaSigner.url),
    secrets:
      given.secrets ?? createSecretBox(given.secretsKey ?? loadSecretsKey(config.SECRETS_KEY, dataDir)),
    vision: given.vision ?? createVisionFromConfig(config, log),
    llm: 'llm' in given ? given.llm : createLlmFromConfig(config),
  };
}

async function createMigratedDatabase(
  url: string | undefined,
  dataDir: string,
  log: Logger,
): Promise<Database> {
  const database = await createDatabase({
    url,
    pgliteDir: pgliteDirFor(dataDir),
    onConnectionError: (err) => log.warn({ err }, 'a pooled database connection failed; it will be replaced'),
  });
  await database.migrate();
  return database;
}
