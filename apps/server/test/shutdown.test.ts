import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, pgliteDirFor } from '../src/platform/db/client.js';
import { serverPath } from '../src/platform/paths.js';
import { seedServerDataDir } from './database.js';
import { jpegWithLocation } from './images.js';
import { freePort } from './ports.js';
import { cameraOwnerOverHttp } from './camera-owner.js';

// The acknowledgement guarantee across a SIGTERM, with the real process as `npm start` runs it: 8 FTP clients
// upload in a loop, the server is told to stop midway, and afterwards every upload a client heard 226 for is
// in the database once, and every upload in the database was answered 226 (none committed unacknowledged).
// A request on an HTTP connection kept alive from before the signal is answered 503, not reset; new HTTP, FTP
// and SMTP connections are refused.

const CLIENTS = 8;
const SIGTERM_AFTER_ACKS = 40;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a TCP connection to `port` is refused (the listener is closed). */
async function refused(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  } finally {
    socket.destroy();
  }
}

describe('stopping the server under camera uploads', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hs-shutdown-'));
  let env: Record<string, string>;
  let base: string;
  let port: number;
  let ftpPort: number;
  let smtpPort: number;
  let child: ChildProcess | undefined;
  let stdout = '';
  const logged = (text: string) =>
    new Promise<void>((resolve) => {
      if (stdout.includes(text)) return resolve();
      const check = () => {
        if (!stdout.includes(text)) return;
        child?.stdout?.off('data', check);
        resolve();
      };
      child?.stdout?.on('data', check);
    });

  function start(): ChildProcess {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverPath(),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
    return proc;
  }

  /** Asks the server until its HTTP and FTP servers answer; only the test's own timeout gives up. */
  async function ready(): Promise<void> {
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`)).ok && stdout.includes('Homesitter is running')) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
  }

  beforeAll(async () => {
    await seedServerDataDir(dataDir);
    port = await freePort();
    ftpPort = await freePort();
    smtpPort = await freePort();
    const pasvMin = 41_000 + Math.floor(Math.random() * 300) * 50;
    base = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      SMTP_URL: '',
      INIT_CWD: dataDir,
      FTP_PORT: String(ftpPort),
      FTP_PASV_MIN: String(pasvMin),
      FTP_PASV_MAX: String(pasvMin + 49),
      INGEST_SMTP_PORT: String(smtpPort),
      VERIFICATION_EXEMPT_EMAILS: 'stop@example.com',
      // Long enough that the kept-alive request below surely comes within it, however loaded the machine.
      SHUTDOWN_GRACE_SECONDS: '15',
      SHUTDOWN_TIMEOUT_SECONDS: '120',
    };
  });

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('answers every committed upload before it exits, 503 on a kept-alive connection, and takes no new connection', async () => {
    child = start();
    await ready();

    const { login } = await cameraOwnerOverHttp(base, 'stop@example.com');

    // A browser's connection, kept alive from before the signal.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = async (path: string) => {
      const req = request(`${base}${path}`, { agent });
      req.end();
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      let body = '';
      for await (const chunk of res) body += String(chunk);
      return { res, body, reused: req.reusedSocket };
    };
    expect((await get('/healthz')).res.statusCode).toBe(200);
    // Camera mail is taken before the signal…
    expect(await refused(smtpPort)).toBe(false);

    const jpeg = await jpegWithLocation(320, 240);
    const acked: string[] = [];
    const failed: string[] = [];
    let signalled: Promise<void> | undefined;
    const exit = once(child, 'exit') as Promise<[number | null]>;

    // Each client uploads until the server stops taking uploads; an upload that fails is not sent again.
    async function camera(i: number): Promise<void> {
      const client = new Client(60_000);
      try {
        await client.access({
          host: '127.0.0.1',
          port: ftpPort,
          user: login.username,
          password: login.password,
        });
        for (let n = 0; ; n++) {
          const name = `c${i}-${n}.jpg`;
          try {
            const res = await client.uploadFrom(Readable.from([jpeg]), `/Stop ${i}/${name}`);
            if (res.code === 226) acked.push(name);
            else failed.push(name);
          } catch {
            failed.push(name);
            return;
          }
          if (!signalled && acked.length >= SIGTERM_AFTER_ACKS) {
            signalled = logged('shutting down');
            child!.kill('SIGTERM');
          }
        }
      } finally {
        client.close();
      }
    }
    const cameras = Promise.all(Array.from({ length: CLIENTS }, (_, i) => camera(i)));

    // Once the server has the signal: new connections are refused, the kept-alive one hears 503.
    await (async () => {
      while (!signalled) await sleep(50);
      await signalled;
    })();
    const late = await get('/api/signup/status');
    expect(late.reused).toBe(true);
    expect(late.res.statusCode).toBe(503);
    expect(late.res.headers.connection).toBe('close');
    expect(late.res.headers['retry-after']).toBe('5');
    expect(JSON.parse(late.body)).toMatchObject({ success: false, code: 'server.unavailable' });
    expect(await refused(port)).toBe(true);
    expect(await refused(ftpPort)).toBe(true);
    // …and refused after it, like FTP and HTTP.
    expect(await refused(smtpPort)).toBe(true);

    await cameras;
    expect(await exit).toEqual([0, null]);
    agent.destroy();

    const database = await createDatabase({ pgliteDir: pgliteDirFor(dataDir) });
    try {
      const uploads = await database.query<{ original_name: string }>('SELECT original_name FROM uploads');
      const rows = new Map<string, number>();
      for (const u of uploads) rows.set(u.original_name, (rows.get(u.original_name) ?? 0) + 1);
      const ackedSet = new Set(acked);
      const figures = {
        acknowledged: acked.length,
        stored: rows.size,
        lost: acked.filter((name) => !rows.has(name)).length,
        duplicated: [...rows.values()].filter((n) => n > 1).length,
        storedWithoutAck: [...rows.keys()].filter((name) => !ackedSet.has(name)).length,
        failedAfterSignal: failed.length,
      };
      console.info('SIGTERM under 8 FTP clients:', JSON.stringify(figures));
      expect(figures.acknowledged).toBeGreaterThanOrEqual(SIGTERM_AFTER_ACKS);
      // Every acknowledged upload is there, once; every upload there was acknowledged.
      expect(figures).toMatchObject({ lost: 0, duplicated: 0, storedWithoutAck: 0 });
      expect(figures.stored).toBe(figures.acknowledged);
      // Each client's last upload was refused by the stopping server (none sent after it).
      expect(failed.length).toBe(CLIENTS);
    } finally {
      await database.close();
    }
  }, 300_000);
});
