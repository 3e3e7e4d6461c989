import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDisabledVisionEngine } from '../src/adapters/vision/disabled.vision.js';
import type { VisionEngine } from '../src/adapters/vision/vision.js';
import { createServer, type AppDeps, type Server } from '../src/app.js';
import { createAdapters, type Limits } from '../src/bootstrap.js';
import type { Fanout } from '../src/adapters/fanout/fanout.js';
import { loadSigningKey, type SigningKey } from '../src/modules/auth/tokens.js';
import { loadConfig } from '../src/platform/config.js';
import type { Database } from '../src/platform/db/client.js';
import { createEventBus } from '../src/platform/events.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import { codeFromMail, createCaptureMailer } from './capture-mailer.js';
import { createTestDatabase } from './database.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';
/** HMAC key of media URLs in tests, so a test can sign a URL the server accepts. */
export const TEST_MEDIA_SECRET = 'test-media-secret-0123456789';

export interface TestApp {
  app: FastifyInstance;
  /** The modules' APIs, as the server composed them. */
  modules: Server['modules'];
  /** The server's durable jobs. */
  jobs: Server['jobs'];
  database: Database;
  mailer: ReturnType<typeof createCaptureMailer>;
  deps: AppDeps;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  limits?: Limits;
  database?: Database;
  /** A stand-in vision engine; without one nothing is ever detected. */
  vision?: VisionEngine;
  /** false: user messages get no answer from the home sitter (tests of the chat's own mechanics). */
  chatAnswers?: boolean;
  /** false: `analysis.analyse` jobs stay queued, so a test sees exactly what processing stored. */
  analysis?: boolean;
  /** How long a desktop helper's live relay goes on without viewers (30 s in the server). */
  helperLiveLingerMs?: number;
  /** The Nest live sessions' clock and how long one goes on without viewers (20 s in the server). */
  nestLive?: AppDeps['nestLive'];
  /** The clock of billing's refund preview (a fake Stripe's own, so amounts do not depend on test speed). */
  billingNow?: () => Date;
  /** Another instance's fan-out end (test/linked-fanout.ts), to run two instances of the server in one test. */
  fanout?: Fanout;
  /** The ID token key, shared by instances that must accept each other's tokens. */
  signingKey?: SigningKey;
  /** The server's logger (a test reading the log passes one); silent, or TEST_LOG_LEVEL, by default. */
  log?: Logger;
}

/** The whole server on a fresh database, a capture mailer and a throwaway key; drive it with `app.inject`. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hs-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://homesitter.test',
    // The test machines are shared and noisy: a busy neighbour must not make this server shed the test's
    // own calls. Load shedding has its own tests (injected pressure, or this setting passed explicitly).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...options.env,
  });
  const database = options.database ?? (await createTestDatabase());
  const mailer = createCaptureMailer();
  const log = options.log ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const deps: AppDeps = {
    ...(await createAdapters(config, {
      log,
      events: createEventBus(log),
      database,
      mailer,
      signingKey: options.signingKey ?? (await loadSigningKey(undefined, join(dataDir, 'auth-key.pem'))),
      ...(options.fanout ? { fanout: options.fanout } : {}),
      adminToken: TEST_ADMIN_TOKEN,
      mediaSecret: TEST_MEDIA_SECRET,
      limits: options.limits ?? { authPerIpPerMinute: 10_000, signInPerEmail: 10_000 },
      vision: options.vision ?? createDisabledVisionEngine(),
      webDistDir: undefined,
    })),
    ...(options.chatAnswers === false ? { chatAnswers: false } : {}),
    ...(options.analysis === false ? { analysis: false } : {}),
    ...(options.helperLiveLingerMs !== undefined ? { helperLiveLingerMs: options.helperLiveLingerMs } : {}),
    ...(options.billingNow ? { billingNow: options.billingNow } : {}),
    ...(options.nestLive ? { nestLive: options.nestLive } : {}),
  };
  const { app, modules, jobs } = await createServer(deps);
  await app.ready();
  return {
    app,
    modules,
    jobs,
    database,
    mailer,
    deps,
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

export interface TestUser {
  email: string;
  password: string;
  uid: string;
  idToken: string;
  refreshToken: string;
  auth: { authorization: string };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}@example.com`;
}

/** Signs up through the API; with `verify`, follows the mailed link and refreshes to a verified token. */
export async function signUp(
  t: TestApp,
  options: {
    email?: string;
    password?: string;
    verify?: boolean;
    profile?: boolean;
    /** The profile's time zone (default Europe/Berlin). */
    timezone?: string;
  } = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: { email, password } });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  let session = res.json<{ idToken: string; refreshToken: string; user: { uid: string } }>();
  if (options.verify ?? true) {
    const code = codeFromMail(t.mailer.lastTo(email));
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { code } });
    if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { refreshToken: session.refreshToken },
    });
    session = refreshed.json();
  }
  const user: TestUser = {
    email,
    password,
    uid: session.user.uid,
    idToken: session.idToken,
    refreshToken: session.refreshToken,
    auth: { authorization: `Bearer ${session.idToken}` },
  };
  if (options.profile ?? true) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: user.auth,
      payload: { timezone: options.timezone ?? 'Europe/Berlin', phone_number: '(555) 123-4567' },
    });
    if (created.statusCode !== 201) throw new Error(`profile failed: ${created.statusCode} ${created.body}`);
  }
  return user;
}

/**
 * A time zone where it is early afternoon now (a whole-hour offset, `Etc/GMT∓N`), for tests whose events lie
 * minutes or hours before now and whose answers speak of "today": in a fixed zone such a test would see its
 * events fall on yesterday whenever it runs shortly after that zone's midnight.
 */
export function afternoonTimeZone(now = new Date()): string {
  const offset = 14 - now.getUTCHours(); // -9 … +14, all real offsets
  if (offset === 0) return 'Etc/GMT';
  // The Etc zones' signs are POSIX-style: Etc/GMT-3 is three hours ahead of UTC.
  return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
