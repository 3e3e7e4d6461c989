import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, pgliteDirFor } from '../src/platform/db/client.js';
import { serverPath } from '../src/platform/paths.js';
import { seedServerDataDir } from './database.js';
import { ftpBurst } from './ftp-burst.js';
import { jpegWithLocation } from './images.js';
import { freePort } from './ports.js';
import { cameraOwnerOverHttp } from './camera-owner.js';

// The acknowledgement guarantee under a crash, with the real process as `npm start` runs it: 8 FTP clients
// upload 200 files, the server is killed with SIGKILL midway and started again, and afterwards every upload
// that was answered 226 is an upload row in exactly one activity, and nothing half is left on storage.

const CLIENTS = 8;
const FILES_PER_CLIENT = 25;
const KILL_AFTER_ACKS = 90;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

describe('camera ingest across a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hs-crash-'));
  let env: Record<string, string>;
  let base: string;
  let ftpPort: number;
  let child: ChildProcess | undefined;

  function start(): ChildProcess {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverPath(),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
    return proc;
  }

  /** Asks the server until its HTTP and FTP servers answer; only the test's own timeout gives up. */
  async function ready(): Promise<void> {
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) {
          // The FTP server starts right after the HTTP one.
          const probe = new Client(2_000);
          try {
            await probe.connect('127.0.0.1', ftpPort);
            return;
          } catch {
            // not yet
          } finally {
            probe.close();
          }
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
  }

  beforeAll(async () => {
    await seedServerDataDir(dataDir);
    const port = await freePort();
    ftpPort = await freePort();
    const pasvMin = 41_000 + Math.floor(Math.random() * 300) * 50;
    base = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      WEB_DIST_DIR: join(dataDir, 'no-web'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: '',
      INIT_CWD: dataDir,
      FTP_PORT: String(ftpPort),
      FTP_PASV_MIN: String(pasvMin),
      FTP_PASV_MAX: String(pasvMin + 49),
      INGEST_SMTP_PORT: '0',
      VERIFICATION_EXEMPT_EMAILS: 'crash@example.com',
      // Upload files left by the crash (stored, never committed) are swept at the restart.
      INGEST_ORPHAN_AGE_SECONDS: '1',
    };
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  });

  it('keeps every acknowledged upload, once, and leaves nothing half', async () => {
    child = start();
    await ready();

    // A user and their camera upload login, through the API.
    const { idToken, login } = await cameraOwnerOverHttp(base, 'crash@example.com');

    const jpeg = await jpegWithLocation(320, 240);
    let killed = false;
    let restarted: Promise<void> | undefined;

    // Each client uploads its files one after another; a file whose upload fails (the server died) is sent
    // again under a new name once the server is back, as a camera would.
    const { acked } = await ftpBurst({
      cameras: CLIENTS,
      filesPerCamera: FILES_PER_CLIENT,
      login,
      port: () => ftpPort,
      body: jpeg,
      folder: (i) => `Crash ${i}`,
      maxAttempts: 52,
      retryDelayMs: 200,
      beforeRetry: () => restarted ?? Promise.resolve(),
      onAck: (_name, ackedSoFar) => {
        if (!killed && ackedSoFar.length >= KILL_AFTER_ACKS) {
          killed = true;
          const dying = child!;
          dying.kill('SIGKILL');
          restarted = (async () => {
            await exited(dying);
            // Past the orphan age, so the restart sweeps what the crash left.
            await sleep(1_500);
            child = start();
            await ready();
          })();
        }
      },
    });
    expect(killed).toBe(true);
    expect(acked.length).toBeGreaterThanOrEqual(CLIENTS * FILES_PER_CLIENT);

    // Processing settles: the activities list stops growing.
    let last = -1;
    for (let stable = 0; stable < 5;) {
      await sleep(1_000);
      const res = await fetch(`${base}/api/users/activities?pageSize=100`, {
        headers: { authorization: `Bearer ${idToken}` },
      });
      const n = res.ok ? ((await res.json()) as { data: unknown[] }).data.length : -1;
      stable = n === last && n > 0 ? stable + 1 : 0;
      last = n;
    }
    child.kill('SIGTERM');
    await exited(child);

    // The database and storage as the server left them.
    const database = await createDatabase({ pgliteDir: pgliteDirFor(dataDir) });
    try {
      const uploads = await database.query<{
        id: string;
        original_name: string;
        storage_key: string;
        status: string;
        activity_id: string | null;
      }>('SELECT id, original_name, storage_key, status, activity_id FROM uploads');
      const activities = await database.query<{ id: string; image_keys: string[] }>(
        'SELECT id, image_keys FROM activities',
      );
      const byName = new Map<string, typeof uploads>();
      for (const u of uploads) byName.set(u.original_name, [...(byName.get(u.original_name) ?? []), u]);
      const activityIds = new Set(activities.map((a) => a.id));

      // Every acknowledged upload: one row, processed into an existing activity.
      for (const name of acked) {
        const rows = byName.get(name) ?? [];
        expect(rows, name).toHaveLength(1);
        expect(rows[0]!.status, name).toBe('processed');
        expect(activityIds.has(rows[0]!.activity_id!), name).toBe(true);
      }
      // No upload twice: every processed upload's image appears in exactly one activity, exactly once.
      const imageKeys = activities.flatMap((a) => a.image_keys);
      expect(new Set(imageKeys).size).toBe(imageKeys.length);
      expect(imageKeys.length).toBe(uploads.filter((u) => u.status === 'processed').length);
      expect(uploads.filter((u) => u.status === 'pending')).toEqual([]);

      // Nothing half: every object left under an uploads folder has its row (no orphans survive the sweep),
      // and no spool file is left.
      const media = join(dataDir, 'media');
      const keys = existsSync(media)
        ? readdirSync(media, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile() && /\/uploads$/.test(e.parentPath))
            .map((e) => `${e.parentPath.slice(media.length + 1)}/${e.name}`)
        : [];
      const rowKeys = new Set(uploads.map((u) => u.storage_key));
      expect(keys.filter((k) => !rowKeys.has(k))).toEqual([]);
      const spool = join(dataDir, 'ingest-spool');
      expect(existsSync(spool) ? readdirSync(spool) : []).toEqual([]);
    } finally {
      await database.close();
    }
  }, 600_000);
});
