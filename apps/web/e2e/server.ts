import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startFakeStripe } from '../../server/test/fake-stripe';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** The operator's token (`Authorization: Bearer …` on /api/admin/*), e.g. to set a user's free events. */
    adminToken: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

/** Builds and starts the real app with `npm start` on a free port and a fresh DATA_DIR; stops it after. */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'homesitter-e2e-'));
  const baseUrl = `http://localhost:${port}`;
  const adminToken = `e2e-admin-${process.pid}-${Date.now()}`;
  // Billing on, against a local fake of Stripe's API and hosted Checkout (no test reaches the internet).
  const stripe = await startFakeStripe({
    webhookUrl: `${baseUrl}/api/stripe/webhook`,
    webhookSecret: 'whsec_e2e',
    secretKey: 'sk_test_e2e',
  });
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
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
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  try {
    await waitForReady(baseUrl, child, 180_000);
  } catch (error) {
    await stripe.close();
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('adminToken', adminToken);
  return async () => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await stripe.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
