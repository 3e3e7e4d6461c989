import type * as ChildProcesses from 'node:child_process';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../platform/logger.js';
import { createLocalVisionEngine, type LocalVisionOptions } from './local.vision.js';
import { UnreadableImageError, type VisionEngine } from './vision.js';

/**
 * The engine's own promises (queue, lazy start, crash, hang, idle stop, close, scaling back to the image's
 * size) with a stand-in process that speaks the protocol without models (test/vision-fake.worker.mjs). The
 * models themselves are tested on real photos in vision.test.ts.
 */
// The engine's processes as it forks them, so a test can wait for one to exit.
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcesses>();
  return { ...actual, fork: vi.fn(actual.fork) };
});

const fakeWorker = new URL('../../../test/vision-fake.worker.mjs', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'hs-vision-'));
const starts = join(dir, 'starts');
process.env.FAKE_VISION_STARTS = starts;
const startedPids = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean).map(Number);
const started = () => startedPids().length;
/** Whether a process of that id still runs (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A plain image of a given size; the stand-in worker reads its width as the command. */
const image = (width: number, height = 10) =>
  sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();

let engines: VisionEngine[] = [];
function engine(options: Partial<LocalVisionOptions> = {}): VisionEngine {
  const e = createLocalVisionEngine({ log: createLogger('silent'), workerUrl: fakeWorker, ...options });
  engines.push(e);
  return e;
}
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
  writeFileSync(starts, '');
  delete process.env.FAKE_VISION_FATAL;
});

/** Waits until a condition on the recorded starts holds, looking again each time a process records one. */
async function until(condition: () => boolean): Promise<void> {
  const watcher = watch(starts);
  try {
    while (!condition()) await once(watcher, 'change');
  } finally {
    watcher.close();
  }
}

/** Resolves when the engine's process of that id has exited (the engine already let go of it). */
function exited(pid: number): Promise<unknown> {
  const child = vi
    .mocked(fork)
    .mock.results.map((r) => r.value as ChildProcess)
    .find((c) => c.pid === pid);
  if (!child) throw new Error(`no forked process ${pid}`);
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit');
}

/** Only the idle timers are faked: the test says when a process has idled. */
const fakeIdleTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

const processOf = async (e: VisionEngine, width = 40) =>
  (await e.analyse(await image(width))).objects[0]?.label;

describe('local vision engine (queue and process lifecycle)', () => {
  it('starts its process on first use only, and keeps it for the calls after', async () => {
    writeFileSync(starts, '');
    const e = engine();
    expect(started()).toBe(0);
    const first = await processOf(e);
    const second = await processOf(e);
    expect(first).toMatch(/^process-\d+$/);
    // Not the test's own process: the models' memory is never the server's.
    expect(first).not.toBe(`process-${process.pid}`);
    expect(second).toBe(first);
    expect(started()).toBe(1);
  });

  it('runs one call at a time by default, and several in as many processes when asked', async () => {
    // Calls that never finish (width 12) hold their process, so every call running at once needs one.
    const hang = await image(12);
    const settle = (calls: Promise<unknown>[]) => Promise.allSettled(calls);

    writeFileSync(starts, '');
    const three = engine({ concurrency: 3 });
    const parallel = settle([three.analyse(hang), three.analyse(hang), three.analyse(hang)]);
    await until(() => started() === 3);
    await three.close();
    await parallel;

    writeFileSync(starts, '');
    const one = engine();
    const serial = settle([one.analyse(hang), one.analyse(hang), one.analyse(hang)]);
    await until(() => started() === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started()).toBe(1);
    await one.close();
    expect((await serial).every((r) => r.status === 'rejected')).toBe(true);
  });

  it('rejects the call a crashing process was running, and starts a fresh one for the next', async () => {
    writeFileSync(starts, '');
    const e = engine();
    const before = await processOf(e);
    await expect(e.analyse(await image(11))).rejects.toThrow(/exited with code 3/);
    const after = await processOf(e);
    expect(after).not.toBe(before);
    expect(started()).toBe(2);
  });

  it('gives up on a process that does not answer in time, and carries on with a new one', async () => {
    const e = engine({ timeoutMs: 2_000 });
    await expect(e.analyse(await image(12))).rejects.toThrow(/longer than 2000 ms/);
    expect(await processOf(e)).toMatch(/^process-/);
  });

  it('passes on a call the process could not do, keeping the process', async () => {
    const e = engine();
    const before = await processOf(e);
    await expect(e.analyse(await image(13))).rejects.toThrow(/could not look/);
    expect(await processOf(e)).toBe(before);
  });

  it('fails the call when the models cannot be loaded, and tries again on the next', async () => {
    writeFileSync(starts, '');
    process.env.FAKE_VISION_FATAL = '1';
    const e = engine();
    await expect(e.analyse(await image(40))).rejects.toThrow(/could not be loaded: no models here/);
    await expect(e.analyse(await image(40))).rejects.toThrow(/could not be loaded/);
    expect(started()).toBe(2);
  });

  it('rejects queued and later calls once closed', async () => {
    writeFileSync(starts, '');
    const e = engine();
    const [hang, other] = [await image(12), await image(40)];
    const running = e.analyse(hang);
    // The process is started for the call and handed it at once, so a started process is running it.
    await until(() => started() === 1);
    const queued = e.analyse(other);
    const outcomes = Promise.allSettled([running, queued]);
    await e.close();
    const [a, b] = await outcomes;
    expect(a.status === 'rejected' && String(a.reason)).toMatch(/closed/);
    expect(b.status === 'rejected' && String(b.reason)).toMatch(/closed/);
    await expect(e.analyse(other)).rejects.toThrow(/closed/);
  });

  it('answers in pixels of the image as given, however small it was looked at', async () => {
    const e = engine();
    const result = await e.analyse(await image(4000, 2000));
    expect([result.width, result.height]).toEqual([4000, 2000]);
    expect(result.objects[0]?.box).toEqual([0, 0, 4000, 2000]);
    const [face] = await e.embedFaces(await image(3000, 1500));
    expect(face?.box).toEqual([0, 0, 3000, 1500]);
  });

  it('reports the size after the EXIF orientation', async () => {
    const turned = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#fff' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const result = await engine().analyse(turned);
    expect([result.width, result.height]).toEqual([30, 60]);
  });

  it('refuses what is not an image before any process is involved', async () => {
    writeFileSync(starts, '');
    const e = engine();
    await expect(e.analyse(Buffer.from('not an image'))).rejects.toBeInstanceOf(UnreadableImageError);
    await expect(e.embedFaces(Buffer.alloc(0))).rejects.toBeInstanceOf(UnreadableImageError);
    expect(started()).toBe(0);
  });

  it('stops a process that has idled for idleMs, and starts a fresh one for the next call', async () => {
    writeFileSync(starts, '');
    fakeIdleTimers();
    const e = engine({ idleMs: 300 });
    const first = await processOf(e);
    const [pid] = startedPids();
    vi.advanceTimersByTime(300);
    await exited(pid!);
    expect(alive(pid!)).toBe(false);
    const second = await processOf(e);
    expect(second).not.toBe(first);
    expect(started()).toBe(2);
  });

  it('keeps a process that gets work more often than idleMs', async () => {
    writeFileSync(starts, '');
    fakeIdleTimers();
    const e = engine({ idleMs: 500 });
    const first = await processOf(e);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(200);
      expect(await processOf(e)).toBe(first);
    }
    expect(started()).toBe(1);
  });

  it('stops its processes when closed', async () => {
    writeFileSync(starts, '');
    const e = engine({ concurrency: 2 });
    await Promise.all([processOf(e), processOf(e)]);
    expect(started()).toBe(2);
    // close() waits for each process's exit.
    await e.close();
    expect(startedPids().every((pid) => !alive(pid))).toBe(true);
  });

  it('lets a script that is done exit: an idle process keeps nothing alive, and close() waits for it', async () => {
    // In a process of its own, since vitest's own handles would keep any event loop alive.
    const script = `
      import sharp from 'sharp';
      import { createLocalVisionEngine } from ${JSON.stringify(new URL('./local.vision.ts', import.meta.url).href)};
      import { createLogger } from ${JSON.stringify(new URL('../../platform/logger.ts', import.meta.url).href)};
      const e = createLocalVisionEngine({ log: createLogger('silent'), workerUrl: new URL(${JSON.stringify(fakeWorker.href)}) });
      const jpeg = await sharp({ create: { width: 40, height: 10, channels: 3, background: '#888' } }).jpeg().toBuffer();
      const first = await e.analyse(jpeg);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await e.analyse(jpeg);
      await e.close();
      console.log('done', first.objects[0].label);
    `;
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', pathToFileURL(tsx).href, '--input-type=module', '-e', script],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (exitCode) => resolve({ stdout: out, code: exitCode }));
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^done process-\d+$/m);
  });
});
