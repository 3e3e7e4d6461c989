import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin/cli.js';
import { loadConfig } from '../src/platform/config.js';
import { serverPath } from '../src/platform/paths.js';
import { freePort } from './ports.js';

// The real process, as `npm start` runs it: a port, a data directory on disk, signals.

const dataDir = mkdtempSync(join(tmpdir(), 'hs-process-'));
const webDir = mkdtempSync(join(tmpdir(), 'hs-web-'));
let port: number;
let base: string;
let env: Record<string, string>;

function start(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverPath(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  return child;
}

// Starting under tsx compiles the whole server; with the rest of the suite on both cores that can take a while.
const START_TIMEOUT_MS = 75_000;

/** Asks the server until it answers ready; only the test's own timeout gives up. */
async function ready(): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve));

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Homesitter</title><div id="root"></div>');
  writeFileSync(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    WEB_DIST_DIR: webDir,
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    SMTP_URL: '',
    INIT_CWD: dataDir,
    // The camera FTP and SMTP servers start too, on ports of their own choosing.
    FTP_PORT: '0',
    INGEST_SMTP_PORT: '0',
  };
});

describe('the server process', () => {
  let child: ChildProcess;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it(
    'serves the web app with history fallback, and the API beside it',
    async () => {
      child = start();
      await ready();
      const page = await fetch(`${base}/settings/account`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toContain('<div id="root">');
      const asset = await fetch(`${base}/assets/app-abc123.js`);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      const api = await fetch(`${base}/api/unknown`);
      expect(api.status).toBe(404);
      expect(await api.json()).toMatchObject({ success: false, code: 'route_not_found' });
    },
    START_TIMEOUT_MS + 15_000,
  );

  it('drains an in-flight request on SIGTERM and exits cleanly', async () => {
    const body = JSON.stringify({ email: 'drain@example.com', password: 'longenough' });
    // "Expect: 100-continue": the server's "100 Continue" says it has taken the request in, so the signal
    // comes while the request is in flight there.
    const pending = request(`${base}/api/auth/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    });
    const answered = once(pending, 'response') as Promise<[IncomingMessage]>;
    await once(pending, 'continue');
    pending.end(body);
    const exit = exited(child);
    child.kill('SIGTERM');
    const [res] = await answered;
    res.resume();
    expect(res.statusCode).toBe(201);
    expect(await exit).toBe(0);
  });

  it(
    'keeps data on disk across restarts and leaves the mail in the outbox',
    async () => {
      child = start();
      await ready();
      const res = await fetch(
        `${base}/api/auth/sign-in`,
        json({ email: 'drain@example.com', password: 'longenough' }),
      );
      expect(res.status).toBe(200);
      const outbox = readdirSync(join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml'));
      expect(outbox).toHaveLength(1);
      // Quoted-printable folds long lines; unfold it to read the link.
      const eml = readFileSync(join(dataDir, 'outbox', outbox[0]!), 'utf8')
        .replace(/=\r?\n/g, '')
        .replaceAll('=3D', '=');
      expect(eml).toContain(`${base}/verify-email?code=`);
    },
    START_TIMEOUT_MS + 15_000,
  );

  it('takes operator commands from npm run admin', async () => {
    const config = loadConfig(env);
    expect(await runAdmin(['signup', 'off'], config)).toMatch(/closed/);
    expect(await (await fetch(`${base}/api/signup/status`)).json()).toEqual({
      success: true,
      data: { enabled: false },
    });
    await fetch(`${base}/api/signup/waitlist`, json({ email: 'queue@example.com' }));
    expect(await runAdmin(['waitlist', 'list'], config)).toMatch(/queue@example\.com\n1 on the waitlist\./);
    expect(await runAdmin(['signup', 'on'], config)).toMatch(/open/);
    await expect(runAdmin(['nonsense'], config)).rejects.toThrow(/Usage/);
    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
