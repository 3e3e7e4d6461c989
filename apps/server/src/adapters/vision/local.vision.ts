import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type sharpDefault from 'sharp';
import type { Logger } from '../../platform/logger.js';
import { loadSharp, openImage } from '../../platform/sharp.js';
import {
  UnreadableImageError,
  type AnalyseOptions,
  type Box,
  type DetectedFace,
  type ObjectKind,
  type VisionEngine,
  type VisionResult,
} from './vision.js';
import { DEFAULT_FACE_MIN_SCORE, DEFAULT_MIN_SCORES } from './vision.labels.js';
import type {
  AnalyseReply,
  RawImage,
  VisionReply,
  VisionRequest,
  WorkerSettings,
} from './vision.protocol.js';

/**
 * The local vision engine: human's CenterNet and face-api's face models on the TensorFlow WASM backend, in
 * child processes (`vision.worker.ts`), like Immich's separate machine-learning service: the models' ~400 MB
 * are never part of the API server's memory, and go back to the system when the process stops. This side
 * decodes images with sharp (libvips works on libuv's thread pool, so the event loop stays free), sends the
 * pixels to a process and scales the answer back to the size of the image it was given. A process starts on
 * first use, loads the models once, and is stopped after `idleMs` without work; work beyond the concurrency
 * waits in a queue. A process that crashes, fails to load its models or hangs is stopped, the call it was
 * running is rejected, and the next call starts a fresh one.
 */

export interface LocalVisionOptions {
  log: Logger;
  /** Images analysed at once, one process each (each holds its own copy of the models). */
  concurrency?: number;
  /** A call that runs longer than this stops its process and fails (the first call includes loading the models). */
  timeoutMs?: number;
  /** A process without work for this long is stopped (its memory freed); the next call starts it again. 0 keeps it. */
  idleMs?: number;
  /** Lowest detector score reported per kind (the evaluation lowers them to sweep thresholds). */
  minScores?: Partial<Record<ObjectKind, number>>;
  faceMinScore?: number;
  /** The process's script; tests point it at a stand-in that speaks the same protocol. */
  workerUrl?: URL;
}

/** Camera images are decoded at most this large: a 1080p frame keeps every pixel for the faces. */
const ANALYSE_EDGE = 1920;
/**
 * The object detector's copy: CenterNet looks at a 512×512 square. Letterboxed (the picture kept whole, padded
 * below or to the right) rather than squeezed: a squeezed 16:9 frame makes people thinner than the model knows
 * them, and on the fixtures letterboxing lifts people's scores by 0.1–0.5 (docs/vision.md).
 */
const DETECT_SIZE = 512;
/** Memory photos: faces in them are large, and SSD sees 512×512. */
const EMBED_EDGE = 1280;

interface Decoded {
  /** Size of the image as given, after EXIF orientation. */
  width: number;
  height: number;
  image: RawImage;
}

async function toRaw(pipeline: sharpDefault.Sharp): Promise<RawImage> {
  const { data, info } = await pipeline
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new UnreadableImageError(`unexpected ${info.channels} colour channels`);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

async function decode(buf: Buffer, maxEdge: number): Promise<Decoded> {
  try {
    const meta = await (await openImage(buf)).metadata();
    if (!meta.width || !meta.height) throw new UnreadableImageError('the image has no size');
    const turned = (meta.orientation ?? 1) >= 5;
    const image = await toRaw(
      (await openImage(buf))
        .rotate()
        .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true }),
    );
    return {
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      image,
    };
  } catch (err) {
    if (err instanceof UnreadableImageError) throw err;
    throw new UnreadableImageError(`the image could not be decoded: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** The image letterboxed into the detector's square, and how many image pixels one square pixel spans. */
async function letterbox(image: RawImage): Promise<{ detect: RawImage; detectScale: number }> {
  const sharp = await loadSharp();
  const detect = await toRaw(
    sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize({
      width: DETECT_SIZE,
      height: DETECT_SIZE,
      fit: 'contain',
      position: 'left top',
      background: { r: 0, g: 0, b: 0 },
    }),
  );
  return { detect, detectScale: Math.max(image.width, image.height) / DETECT_SIZE };
}

const scaleBox = (box: Box, sx: number, sy: number): Box => [
  Math.round(box[0] * sx),
  Math.round(box[1] * sy),
  Math.round(box[2] * sx),
  Math.round(box[3] * sy),
];

/**
 * How to start the vision process: the bundled script, or (from source under tsx or vitest) the .ts through
 * tsx's loader. The server's own Node flags are not passed on (a child of `fork` inherits them otherwise).
 */
function workerScript(override: URL | undefined): { entry: string; execArgv: string[] } {
  if (override) return { entry: fileURLToPath(override), execArgv: [] };
  // Bundled, this module is dist/main.js and the worker dist/vision.worker.js beside it.
  if (!import.meta.url.endsWith('.ts'))
    return { entry: fileURLToPath(new URL('./vision.worker.js', import.meta.url)), execArgv: [] };
  // tsx's package entry is its ESM loader, the same module `node --import tsx` registers.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return {
    entry: fileURLToPath(new URL('./vision.worker.ts', import.meta.url)),
    execArgv: ['--import', tsx],
  };
}

/** A request before it is numbered. */
type NewRequest = VisionRequest extends infer R ? (R extends VisionRequest ? Omit<R, 'id'> : never) : never;

interface Job {
  request: NewRequest;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  child: ChildProcess | undefined;
  running: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;
  /** Stops an idle process after `idleMs`, so the models' memory goes back to the system. */
  idle: NodeJS.Timeout | undefined;
}

export function createLocalVisionEngine(options: LocalVisionOptions): VisionEngine {
  const { log } = options;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const idleMs = options.idleMs ?? 300_000;
  const settings: WorkerSettings = {
    minScores: { ...DEFAULT_MIN_SCORES, ...options.minScores },
    faceMinScore: options.faceMinScore ?? DEFAULT_FACE_MIN_SCORE,
  };
  const script = workerScript(options.workerUrl);
  const slots: Slot[] = Array.from({ length: concurrency }, () => ({
    child: undefined,
    running: undefined,
    idle: undefined,
  }));
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  /** A busy process keeps the server alive (a script awaiting its answer); an idle one does not. */
  function hold(child: ChildProcess, busy: boolean): void {
    const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
    if (busy) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }

  function stop(slot: Slot, reason: Error): void {
    const { child, running } = slot;
    slot.child = undefined;
    slot.running = undefined;
    clearTimeout(slot.idle);
    slot.idle = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.reject(reason);
    }
    if (child) {
      child.removeAllListeners();
      // A late 'error' (a message to a process already gone) must not become an uncaught exception.
      child.on('error', () => undefined);
      // It holds nothing worth a graceful stop, and may be deep in a synchronous inference.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }

  function start(slot: Slot): ChildProcess {
    const child = fork(script.entry, [JSON.stringify(settings)], {
      execArgv: script.execArgv,
      // Typed arrays (the decoded pixels) cross as they are, not as JSON arrays of numbers.
      serialization: 'advanced',
      // stdout is unused (library chatter comes as 'log' messages); stderr shows a crash's last words.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (reply: VisionReply) => {
      if (reply.type === 'log') {
        if (reply.level === 'warn') log.warn({ vision: reply.message }, 'vision process');
        else log.debug({ vision: reply.message }, 'vision process');
        return;
      }
      if (reply.type === 'fatal') {
        log.error({ error: reply.error }, 'the vision models could not be loaded');
        stop(slot, new Error(`the vision models could not be loaded: ${reply.error}`));
        pump();
        return;
      }
      const running = slot.running;
      if (!running || running.id !== reply.id) return;
      clearTimeout(running.timer);
      slot.running = undefined;
      if (reply.type === 'result') running.job.resolve(reply.result);
      else running.job.reject(new Error(`vision failed: ${reply.error}`));
      pump();
    });
    child.on('error', (err) => {
      log.error({ err }, 'the vision process failed');
      stop(slot, new Error(`the vision process failed: ${err.message}`, { cause: err }));
      pump();
    });
    child.on('exit', (code, signal) => {
      if (slot.child !== child) return;
      log.error({ code, signal }, 'the vision process exited');
      stop(
        slot,
        new Error(`the vision process exited with ${code === null ? `signal ${signal}` : `code ${code}`}`),
      );
      pump();
    });
    slot.child = child;
    return child;
  }

  /** Nothing left to do for this process: it is let go of, and stopped once it has idled for `idleMs`. */
  function rest(slot: Slot): void {
    const child = slot.child;
    if (!child) return;
    hold(child, false);
    if (idleMs <= 0) return;
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (slot.child !== child || slot.running) return;
      log.debug({ idleMs }, 'the vision process is idle; stopping it to free its memory');
      stop(slot, new Error('the vision process was idle'));
    }, idleMs);
    slot.idle.unref();
  }

  function pump(): void {
    for (const slot of slots) {
      if (slot.running) continue;
      if (closed || queue.length === 0) {
        rest(slot);
        continue;
      }
      const job = queue.shift()!;
      clearTimeout(slot.idle);
      slot.idle = undefined;
      const child = slot.child ?? start(slot);
      const id = nextId++;
      const timer = setTimeout(() => {
        log.error({ timeoutMs }, 'the vision process did not answer in time; restarting it');
        stop(slot, new Error(`vision took longer than ${timeoutMs} ms`));
        pump();
      }, timeoutMs);
      slot.running = { id, job, timer };
      hold(child, true);
      child.send({ ...job.request, id });
    }
  }

  function submit<T>(request: NewRequest): Promise<T> {
    if (closed) return Promise.reject(new Error('the vision engine is closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({ request, resolve: resolve as (value: unknown) => void, reject });
      pump();
    });
  }

  return {
    kind: 'local',

    async analyse(jpeg: Buffer, opts?: AnalyseOptions): Promise<VisionResult> {
      const decoded = await decode(jpeg, ANALYSE_EDGE);
      const { detect, detectScale } = await letterbox(decoded.image);
      const reply = await submit<AnalyseReply>({
        type: 'analyse',
        image: decoded.image,
        detect,
        detectScale,
        faces: opts?.faces ?? false,
      });
      const sx = decoded.width / decoded.image.width;
      const sy = decoded.height / decoded.image.height;
      return {
        width: decoded.width,
        height: decoded.height,
        objects: reply.objects.map((o) => ({ ...o, box: scaleBox(o.box, sx, sy) })),
        faces: reply.faces.map((f) => ({ ...f, box: scaleBox(f.box, sx, sy) })),
      };
    },

    async embedFaces(image: Buffer): Promise<DetectedFace[]> {
      const decoded = await decode(image, EMBED_EDGE);
      const faces = await submit<DetectedFace[]>({ type: 'embed', image: decoded.image });
      const sx = decoded.width / decoded.image.width;
      const sy = decoded.height / decoded.image.height;
      return faces.map((f) => ({ ...f, box: scaleBox(f.box, sx, sy) }));
    },

    async close(): Promise<void> {
      closed = true;
      const reason = new Error('the vision engine is closed');
      for (const job of queue.splice(0)) job.reject(reason);
      await Promise.all(
        slots.map(async (slot) => {
          const child = slot.child;
          // An idle process is unref'd; waiting for its exit must keep the event loop alive.
          child?.ref();
          stop(slot, reason);
          // stop() dropped the listeners and sent the kill; the process is gone once 'exit' comes.
          if (child && child.exitCode === null && child.signalCode === null)
            await new Promise((resolve) => child.once('exit', resolve));
        }),
      );
    },
  };
}
