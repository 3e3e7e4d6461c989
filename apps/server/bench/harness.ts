import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@homesitter/contract';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { serverPath } from '../src/platform/paths.js';
import { cpuTicks, statusMb, visionChildren } from './proc.js';
import { freePort } from '../test/ports.js';

/** A built server in its own process on a fresh data directory, as `npm start` runs it. */
export interface BenchServer {
  base: string;
  pid: number;
  /** Peak resident memory of the server process so far (VmHWM), in MB. */
  peakRssMb(): number;
  /**
   * Peak resident memory of the server's vision processes so far (the models run in child processes that come
   * and go, so they are watched every 250 ms), in MB; 0 when none has run.
   */
  visionPeakRssMb(): number;
  /**
   * Waits until a vision process has started and then done nothing for 1.5 s (its queue is empty: the jobs
   * that wanted it are done), at most `timeoutMs`; answers the seconds waited.
   */
  visionSettled(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: serverPath(), stdio: 'inherit' });
  if (build.status !== 0) throw new Error('server build failed');
  const port = await freePort();
  // The camera receivers start as with `npm start`, on free ports (another server may hold 2121 and 2525).
  const ftpPort = await freePort();
  const smtpPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_NODE_ARGS: extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (NODE_OPTIONS
  // refuses those).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // `--max-semi-space-size=4` as `npm start` runs it (scripts/start.mjs).
  const child: ChildProcess = spawn(
    process.execPath,
    ['--max-semi-space-size=4', ...nodeArgs, 'dist/main.js'],
    {
      cwd: serverPath(),
      env: {
        // As `npm start` runs it (scripts/start.mjs).
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '32768',
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        FTP_PORT: String(ftpPort),
        INGEST_SMTP_PORT: String(smtpPort),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'hs-bench-')),
        LOG_LEVEL: 'warn',
        // The simulated stream cameras listen on loopback, which a server pulls only when it is listed.
        CAMERA_NETWORKS: '127.0.0.0/8',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  // Creating the embedded database takes a while on a loaded machine: wait up to 2 minutes, then say so.
  let ready = false;
  for (let i = 0; i < 1200 && !ready && child.exitCode === null; i++) {
    try {
      ready = (await fetch(`${base}/readyz`)).ok;
    } catch {
      // not yet listening
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the bench server did not become ready (exit code ${child.exitCode})`);
  }
  const pid = child.pid!;
  let visionPeak = 0;
  const watchVision = () => {
    for (const vision of visionChildren(pid)) visionPeak = Math.max(visionPeak, statusMb(vision) ?? 0);
  };
  const watcher = setInterval(watchVision, 250);
  return {
    base,
    pid,
    peakRssMb() {
      return statusMb(pid) ?? 0;
    },
    visionPeakRssMb() {
      watchVision();
      return visionPeak;
    },
    async visionSettled(timeoutMs = 180_000) {
      const started = performance.now();
      const seen = new Map<number, { ticks: number; quietSince: number }>();
      while (performance.now() - started < timeoutMs) {
        await new Promise((r) => setTimeout(r, 250));
        watchVision();
        const now = performance.now();
        for (const vision of visionChildren(pid)) {
          const ticks = cpuTicks(vision);
          if (ticks === undefined) continue;
          const last = seen.get(vision);
          // More than 2 ticks (20 ms) of CPU since the last look is work; anything less is an idle process.
          if (!last || ticks - last.ticks > 2) seen.set(vision, { ticks, quietSince: now });
          else if (now - last.quietSince >= 1_500) return (now - started) / 1000;
        }
      }
      return (performance.now() - started) / 1000;
    },
    async stop() {
      watchVision();
      clearInterval(watcher);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function postJson<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A signed-up user with a profile, and the bearer header to act as them. */
export async function benchUser(base: string): Promise<{ authorization: string }> {
  const session = await postJson<{ idToken: string }>(`${base}/api/auth/sign-up`, {
    email: `bench-${Date.now()}@example.com`,
    password: 'bench password',
  });
  const auth = { authorization: `Bearer ${session.idToken}` };
  await postJson(`${base}/api/users`, { timezone: 'Europe/Berlin' }, auth);
  return auth;
}

/**
 * The app's realtime client as a bench sees it: alerts arrive as ReceiveMessage, and `waiting` holds, per camera
 * name, who is waiting for that camera's next alert. Not started: a bench may listen to more before `start()`.
 */
export function alertListener(base: string, idToken: string) {
  const waiting = new Map<string, (at: number, message: ChatMessage) => void>();
  const hub = new HubConnectionBuilder()
    .withUrl(`${base}/api/realtime`, {
      accessTokenFactory: () => idToken,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  hub.on('ReceiveMessage', (message: ChatMessage) => {
    const at = performance.now();
    const camera = message.role === 'agent' ? message.videos[0]?.camera_name : undefined;
    if (camera) waiting.get(camera)?.(at, message);
  });
  return { hub, waiting };
}
