import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { delimiter, dirname, join } from 'node:path';
import type { TestApp } from '../app.js';
import { duplicatedUploads } from '../ftp-burst.js';
import { startFakeS3 } from '../fake-s3.js';
import { freePort } from '../ports.js';

/**
 * The fake S3 behind a switch: while `failing`, every write (PUT, and DeleteObjects) is answered
 * `500 InternalError` as S3 does when it is having a bad day; reads and lists pass through, so a test can
 * see what is stored.
 */
export async function startFaultyS3() {
  const s3 = await startFakeS3();
  const target = new URL(s3.endpoint);
  /** `failing`: every write answers 500; `failNext`: only the next N writes do; `writes` counts them all. */
  const state = { failing: false, failNext: 0, refused: 0, writes: 0 };
  const proxy: Server = createServer((req, res) => {
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (write) state.writes += 1;
    if (write && (state.failing || state.failNext > 0)) {
      if (state.failNext > 0) state.failNext -= 1;
      state.refused += 1;
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>',
      );
      return;
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects: s3.objects,
    state,
    async close() {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await s3.close();
    },
  };
}

/** An `ENOSPC` as Node's fs raises it when the disk is full. */
export function diskFull(syscall = 'copyfile'): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
  });
}

export interface Tally {
  acked: number;
  refused: number;
  rows: number;
  lost: number;
  duplicated: number;
}

/**
 * Compares what the cameras were told with what the database holds: `lost` are acknowledged uploads without
 * a row, `duplicated` names with more than one row and refused names that have one (`duplicatedUploads`: the
 * camera sent that file again). Uploads refused with a temporary code must have no row.
 */
export async function tally(
  t: TestApp,
  userId: string,
  acked: readonly string[],
  refused: readonly string[],
): Promise<Tally> {
  const rows = await t.database.query<{ original_name: string }>(
    'SELECT original_name FROM uploads WHERE user_id = $1',
    [userId],
  );
  const stored = rows.map((r) => r.original_name);
  const names = new Set(stored);
  return {
    acked: acked.length,
    refused: refused.length,
    rows: rows.length,
    lost: acked.filter((name) => !names.has(name)).length,
    duplicated: duplicatedUploads(stored, refused).duplicated,
  };
}

export function printTally(label: string, figures: Tally): void {
  console.log(
    `[faults] ${label}: acked ${figures.acked}, refused ${figures.refused}, rows ${figures.rows}, ` +
      `lost ${figures.lost}, duplicated ${figures.duplicated}`,
  );
}

/** Spool files left behind (there should never be any once every upload was answered). */
export function spoolLeft(t: TestApp): string[] {
  const spool = join(t.deps.config.DATA_DIR, 'ingest-spool');
  return existsSync(spool) ? readdirSync(spool) : [];
}

export type ProxyMode = 'pass' | 'error' | 'hang';

/**
 * A provider behind a switch: `pass` forwards to `target`, `error` answers 503 at once (the provider is
 * down), `hang` accepts the request and never answers (the provider is slow past any timeout).
 */
export async function startFaultyProxy(target: string) {
  const to = new URL(target);
  const state: { mode: ProxyMode; calls: number } = { mode: 'pass', calls: 0 };
  const hanging = new Set<ServerResponse>();
  const proxy: Server = createServer((req, res) => {
    state.calls += 1;
    if (state.mode === 'hang') {
      req.resume();
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (state.mode === 'error') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 503, message: 'Service Unavailable', status: 503 }));
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    async close() {
      for (const res of hanging) res.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** Asks `check` until it answers something other than undefined; only the test's own timeout gives up. */
export async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  everyMs = 50,
): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

/** Whether a private redis-server can be started here (the binary is installed). */
export const canRunRedis = REDIS_SERVER !== undefined;

/**
 * A private redis-server on a free port, never the machine's shared one, so a test may kill it: no
 * persistence, stopped with SIGKILL (a crash) and started again on the same port.
 */
export async function startPrivateRedis() {
  const port = await freePort();
  let proc: ChildProcess | undefined;
  async function start(): Promise<void> {
    const child = spawn(
      REDIS_SERVER!,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    proc = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  }
  async function kill(): Promise<void> {
    const child = proc;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await gone;
  }
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, kill, close: kill };
}

const execFileAsync = promisify(execFile);

/** Whether `bin` holds the two programs a private cluster needs. */
const hasPgTools = (bin: string) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'));

/** The folder of `name` on PATH, its symlinks followed (Debian links initdb into /usr/local/bin). */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, name);
    if (existsSync(file)) return dirname(realpathSync(file));
  }
  return undefined;
}

/**
 * Where PostgreSQL's server programs are, whatever their version: `PG_BIN`, else `pg_config --bindir`, else the
 * newest `/usr/lib/postgresql/<version>/bin` (Debian, Ubuntu), else the folder of `initdb` on PATH.
 */
export function findPgBin(): string | undefined {
  if (process.env.PG_BIN) return hasPgTools(process.env.PG_BIN) ? process.env.PG_BIN : undefined;
  const candidates: (() => string | undefined)[] = [
    () => {
      try {
        return execFileSync('pg_config', ['--bindir'], { stdio: ['ignore', 'pipe', 'ignore'] })
          .toString()
          .trim();
      } catch {
        return undefined;
      }
    },
    () => {
      const root = '/usr/lib/postgresql';
      if (!existsSync(root)) return undefined;
      const newest = readdirSync(root)
        .filter((v) => /^\d+(\.\d+)?$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(root, v, 'bin'))
        .find(hasPgTools);
      return newest;
    },
    () => onPath('initdb'),
  ];
  for (const candidate of candidates) {
    const bin = candidate();
    if (bin && hasPgTools(bin)) return bin;
  }
  return undefined;
}

const PG_BIN = findPgBin();
const asRoot = process.getuid?.() === 0;

/** The `postgres` OS user's ids, which run the cluster when the tests run as root (initdb refuses root). */
function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }));
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}
const runAs = asRoot ? postgresUser() : undefined;

/**
 * Whether a private PostgreSQL cluster can be made here: initdb and pg_ctl are found, and, as root, a
 * `postgres` user exists to run them. Otherwise `whyNoPostgres` says what is missing.
 */
export const canRunPostgres = PG_BIN !== undefined && (!asRoot || runAs !== undefined);
export const whyNoPostgres = !PG_BIN
  ? 'initdb and pg_ctl were not found (PG_BIN, pg_config --bindir, /usr/lib/postgresql/*/bin, PATH)'
  : asRoot && !runAs
    ? 'the tests run as root and there is no postgres user to run initdb'
    : undefined;

/**
 * A private PostgreSQL cluster in a temporary folder on a free port of 127.0.0.1, never the machine's shared
 * one, so a test may stop and restart it. initdb refuses to run as root, so as root the cluster is made and
 * run by the `postgres` user (`runuser`). No fsync: the data is thrown away.
 */
export async function startPrivatePostgres() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hs-pg-'));
  const data = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  if (!PG_BIN) throw new Error(`no private PostgreSQL here: ${whyNoPostgres}`);
  const pgBin = PG_BIN;
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const run = (bin: string, args: string[]) =>
    runAs
      ? execFileAsync('runuser', ['-u', 'postgres', '--', join(pgBin, bin), ...args])
      : execFileAsync(join(pgBin, bin), args);
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  async function start(): Promise<void> {
    await run('pg_ctl', ['-D', data, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
  }
  /** `fast`: sessions are ended and the server shuts down cleanly; `immediate`: as a crash. */
  async function stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  }
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async close() {
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
