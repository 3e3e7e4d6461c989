import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createOutboxMailer } from './adapters/mail/outbox.mailer.js';
import { createSmtpMailer } from './adapters/mail/smtp.mailer.js';
import { createVisionFromConfig } from './adapters/vision/from-config.js';
import { DEFAULT_LIMITS, type AppDeps } from './app.js';
import { loadSigningKey } from './modules/auth/tokens.js';
import type { Config } from './platform/config.js';
import { createDatabase, pgliteDirFor } from './platform/db/client.js';
import { createLogger } from './platform/logger.js';
import { serverPath } from './platform/paths.js';

/** The admin token from `ADMIN_TOKEN`, else from `DATA_DIR/admin-token`, created on first start (0600). */
export function loadAdminToken(config: Config): string {
  if (config.ADMIN_TOKEN) return config.ADMIN_TOKEN;
  const file = join(config.DATA_DIR, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

/** Builds the real adapters from the config: database (migrated), mailer, signing key, admin token, vision. */
export async function createDeps(config: Config): Promise<AppDeps> {
  const log = createLogger(config.LOG_LEVEL);
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const database = await createDatabase({
    url: config.DATABASE_URL,
    pgliteDir: pgliteDirFor(dataDir),
    onConnectionError: (err) => log.warn({ err }, 'a pooled database connection failed; it will be replaced'),
  });
  await database.migrate();
  const mailer = config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : createOutboxMailer(join(dataDir, 'outbox'), config.MAIL_FROM, log);
  return {
    config,
    log,
    database,
    mailer,
    signingKey: await loadSigningKey(config.AUTH_PRIVATE_KEY, join(dataDir, 'auth-key.pem')),
    adminToken: loadAdminToken({ ...config, DATA_DIR: dataDir }),
    limits: { ...DEFAULT_LIMITS, authPerIpPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE },
    webDistDir: config.WEB_DIST_DIR ? resolve(config.WEB_DIST_DIR) : serverPath('..', 'web', 'dist'),
    // Its worker thread and models load on the first image, not at start.
    vision: createVisionFromConfig(config, log),
  };
}
