import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { seedServerDataDir } from '../../server/test/database';
import { sdmDevice, startFakeGoogle } from '../../server/test/fake-google';
import { startFakeStripe } from '../../server/test/fake-stripe';
import { freePort } from '../../server/test/ports';

/**
 * The Nest camera every e2e server's fake Google offers to an account that links Google Nest: a WebRTC-only
 * doorbell (as the newer ones are) whose stream shows ffmpeg's test pattern.
 */
export const E2E_NEST_CAMERA = 'Front Door Doorbell';

/** One server of the suite: where it listens, its data directory (the mail outbox) and its operator token. */
export interface E2EServer {
  baseUrl: string;
  dataDir: string;
  /** The operator's token (`Authorization: Bearer …` on /api/admin/*), e.g. to set a user's free events. */
  adminToken: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker of the suite, so files running at once share no server (`e2eServer()`). */
    servers: E2EServer[];
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function waitForReady(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Server not ready after ${timeoutMs} ms`);
}

/** `npm start` (building what is stale first) on a free port and `dataDir`; resolves once it answers ready. */
async function startServer(dataDir: string): Promise<{ server: E2EServer; stop(): Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const adminToken = `e2e-admin-${process.pid}-${port}`;
  // Billing on, against a local fake of Stripe's API and hosted Checkout (no test reaches the internet).
  const stripe = await startFakeStripe({
    webhookUrl: `${baseUrl}/api/stripe/webhook`,
    webhookSecret: 'whsec_e2e',
    secretKey: 'sk_test_e2e',
  });
  // Nest on, against a local fake of Google's consent, token and SDM endpoints (server/test/fake-google.ts).
  const google = await startFakeGoogle();
  google.state.devices = [
    sdmDevice('test-project', 'doorbell', { type: 'DOORBELL', room: 'Front Door', protocols: ['WEB_RTC'] }),
  ];
  google.state.webrtcPictures = true;
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      // The camera FTP and SMTP servers on free ports too: the suite's servers run side by side.
      FTP_PORT: String(await freePort()),
      INGEST_SMTP_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      // Every browser test signs up and in from 127.0.0.1; the per-IP limit is for the real world.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // A busy test machine must not make the server shed the browser's calls (load shedding has its own tests).
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      // The live view's simulated camera listens on loopback, which a server pulls only when it is listed.
      CAMERA_NETWORKS: '127.0.0.0/8',
      ADMIN_TOKEN: adminToken,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_MONTHLY: stripe.prices.monthly,
      STRIPE_PRICE_YEARLY: stripe.prices.yearly,
      ...google.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // the process group is gone already (npm start failed)
    }
    await stripe.close();
    await google.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForReady(baseUrl, child, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { server: { baseUrl, dataDir, adminToken }, stop };
}

/**
 * Builds what is stale, then starts the real app with `npm start` once per worker (test files run two at a
 * time: most of a file's time is waiting on the browser, the server and ffmpeg), each on free ports and a
 * DATA_DIR of its own; stops them after. A file thus never meets the state of another file running at the same
 * time, as when the files ran one after another against one server. The first server starts on an empty data
 * directory, as a new installation does (the embedded database created and migrated); the others from a copy
 * of the test suites' migrated database (apps/server/test/database.ts).
 */
export default async function setup(project: TestProject) {
  const built = spawnSync(process.execPath, ['scripts/start.mjs', '--build-only'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`Building the app failed (exit ${built.status})`);
  const dataDirs = Array.from({ length: project.config.maxWorkers }, () =>
    mkdtempSync(path.join(tmpdir(), 'homesitter-e2e-')),
  );
  const starts = dataDirs.map(async (dataDir, i) => {
    if (i > 0) await seedServerDataDir(dataDir);
    return startServer(dataDir);
  });
  const results = await Promise.allSettled(starts);
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stopAll = () => Promise.all(started.map((s) => s.stop()));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    'servers',
    started.map((s) => s.server),
  );
  return async () => {
    await stopAll();
  };
}
