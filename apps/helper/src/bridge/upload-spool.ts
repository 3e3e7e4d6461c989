import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createBackoff, sleep } from '../backoff.js';
import type { Logger } from '../logger.js';

export type MotionFileKind = 'snapshot' | 'clip';

/** One motion file waiting for the server. */
export interface SpoolItem {
  path: string;
  cameraUuid: string;
  kind: MotionFileKind;
  createdAt: Date;
  bytes: number;
}

/**
 * What one upload attempt came to: `done` (the server has it) and `drop` (the server will never take it)
 * remove the file; `retry` tries again after a backoff; `wait` pauses until `wake()` (signed out);
 * `skip` leaves the file for later and goes on with the next (a camera of another account).
 */
export type UploadOutcome = 'done' | 'drop' | 'retry' | 'wait' | 'skip';

export interface UploadSpool {
  /** Picks up what an earlier run left (a crash, a stop while offline) and starts uploading. */
  start(): Promise<void>;
  /** Moves a file into the spool: it is the spool's from then on. */
  addFile(cameraUuid: string, kind: MotionFileKind, file: string): Promise<void>;
  addBuffer(cameraUuid: string, kind: MotionFileKind, data: Buffer): Promise<void>;
  /** Try again now: signed in again, or another account's files may go now. */
  wake(): void;
  pending(): number;
  /** Stops uploading (an upload in flight is abandoned and kept). */
  stop(): Promise<void>;
}

export interface UploadSpoolOptions {
  dir: string;
  /** The most the spool keeps; past it the oldest files go, with a warning. */
  maxBytes: number;
  upload(item: SpoolItem, signal: AbortSignal): Promise<UploadOutcome>;
  log: Logger;
  backoff?: { initialMs: number; maxMs: number };
}

const EXTENSION: Record<MotionFileKind, string> = { snapshot: 'jpg', clip: 'mp4' };
/** `<ms since epoch>-<random>--<camera uuid>.<jpg|mp4>`: the name sorts oldest first and says whose it is. */
const NAME = /^(\d{13,})-([0-9a-f]{8})--([A-Za-z0-9-]{1,64})\.(jpg|mp4)$/;

/**
 * Motion snapshots and clips on their way to the server, durable: each is a file in the spool folder before
 * anything is sent, removed only once the server took it (2xx) or refused it for good. Uploads go one at a
 * time, oldest first, and are retried with backoff while the server is away, so nothing recorded is lost
 * to a crash or an outage, within `maxBytes`.
 */
export function createUploadSpool(options: UploadSpoolOptions): UploadSpool {
  const { dir, log } = options;
  const backoff = createBackoff(options.backoff ?? { initialMs: 1_000, maxMs: 60_000 });
  let items: SpoolItem[] = [];
  let totalBytes = 0;
  let inFlight: SpoolItem | undefined;
  const skipped = new Set<string>();
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let abort = new AbortController();
  let nudge: (() => void) | undefined;
  /** What the loop waits for: a new file (`idle`), `wake()` (`paused`), the backoff's end (`backoff`). */
  let state: 'idle' | 'paused' | 'backoff' | 'uploading' = 'idle';

  /** Resolves at the next `wake()`, a new file (when not paused), or `stop()`; after `ms` when given. */
  function waitForNudge(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      nudge = () => {
        nudge = undefined;
        resolve();
      };
      if (ms !== undefined) void sleep(ms, abort.signal).then(() => nudge?.());
    });
  }

  function parse(name: string, bytes: number): SpoolItem | null {
    const m = NAME.exec(name);
    if (!m) return null;
    return {
      path: join(dir, name),
      cameraUuid: m[3]!,
      kind: m[4] === 'jpg' ? 'snapshot' : 'clip',
      createdAt: new Date(Number(m[1])),
      bytes,
    };
  }

  async function remove(item: SpoolItem): Promise<void> {
    const index = items.indexOf(item);
    if (index === -1) return;
    items.splice(index, 1);
    totalBytes -= item.bytes;
    skipped.delete(item.path);
    await rm(item.path, { force: true });
  }

  async function enforceBound(): Promise<void> {
    while (totalBytes > options.maxBytes && items.length > 1) {
      const oldest = items.find((item) => item !== inFlight);
      if (!oldest) return;
      log.warn(
        { camera: oldest.cameraUuid, file: oldest.path, maxBytes: options.maxBytes },
        'the upload spool is full: the oldest motion file was dropped',
      );
      await remove(oldest);
    }
  }

  async function admit(item: SpoolItem): Promise<void> {
    items.push(item);
    totalBytes += item.bytes;
    await enforceBound();
    if (state === 'idle') nudge?.();
  }

  function nameFor(cameraUuid: string, kind: MotionFileKind): string {
    return `${Date.now()}-${randomUUID().slice(0, 8)}--${cameraUuid}.${EXTENSION[kind]}`;
  }

  async function loop(): Promise<void> {
    while (running) {
      const item = items.find((i) => !skipped.has(i.path));
      if (!item) {
        state = 'idle';
        await waitForNudge();
        continue;
      }
      state = 'uploading';
      inFlight = item;
      const outcome = await options.upload(item, abort.signal).catch((err: unknown) => {
        log.warn({ err: String(err), file: item.path }, 'a motion upload failed');
        return 'retry' as const;
      });
      inFlight = undefined;
      if (!running) return;
      if (outcome === 'done') {
        backoff.reset();
        await remove(item);
      } else if (outcome === 'drop') {
        await remove(item);
      } else if (outcome === 'skip') {
        skipped.add(item.path);
      } else if (outcome === 'wait') {
        state = 'paused';
        await waitForNudge();
      } else {
        state = 'backoff';
        await waitForNudge(backoff.next());
      }
    }
  }

  return {
    async start() {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const found: SpoolItem[] = [];
      for (const name of await readdir(dir)) {
        const path = join(dir, name);
        const item = parse(name, 0);
        // Half-written files of a crash (`.tmp`) and anything else that is not ours go.
        if (!item) {
          await rm(path, { force: true, recursive: true });
          continue;
        }
        item.bytes = (await stat(path)).size;
        found.push(item);
      }
      items = found.sort((a, b) => a.path.localeCompare(b.path));
      totalBytes = items.reduce((sum, item) => sum + item.bytes, 0);
      if (items.length > 0) log.info({ files: items.length, bytes: totalBytes }, 'resuming motion uploads');
      await enforceBound();
      running = true;
      abort = new AbortController();
      loopDone = loop();
    },
    async addFile(cameraUuid, kind, file) {
      const target = join(dir, nameFor(cameraUuid, kind));
      try {
        await rename(file, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await copyFile(file, `${target}.tmp`);
        await rename(`${target}.tmp`, target);
        await rm(file, { force: true });
      }
      await admit(parse(target.slice(dir.length + 1), (await stat(target)).size)!);
    },
    async addBuffer(cameraUuid, kind, data) {
      const name = nameFor(cameraUuid, kind);
      await writeFile(join(dir, `${name}.tmp`), data, { mode: 0o600 });
      await rename(join(dir, `${name}.tmp`), join(dir, name));
      await admit(parse(name, data.length)!);
    },
    wake() {
      skipped.clear();
      backoff.reset();
      nudge?.();
    },
    pending: () => items.length,
    async stop() {
      running = false;
      abort.abort();
      nudge?.();
      await loopDone;
    },
  };
}
