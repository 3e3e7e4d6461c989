import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type sharpDefault from 'sharp';
import type { Logger } from '../../platform/logger.js';
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
 * worker threads (`vision.worker.ts`). This side decodes images with sharp (libvips works on libuv's thread
 * pool, so the event loop stays free), hands the pixels to a worker and scales the answer back to the size of
 * the image it was given. A worker starts on first use and loads the models once; work beyond the
 * concurrency waits in a queue. A worker that crashes, fails to load its models or hangs is stopped, the
 * call it was running is rejected, and the next call starts a fresh one.
 */

export interface LocalVisionOptions {
  log: Logger;
  /** Images analysed at once, one worker thread each (each holds its own copy of the models). */
  concurrency?: number;
  /** A call that runs longer than this stops its worker and fails (the first call includes loading the models). */
  timeoutMs?: number;
  /** Lowest detector score reported per kind (the evaluation lowers them to sweep thresholds). */
  minScores?: Partial<Record<ObjectKind, number>>;
  faceMinScore?: number;
  /** The worker script; tests point it at a stand-in that speaks the same protocol. */
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
/** Decoding refuses images above this many pixels (a decompression bomb). */
const MAX_INPUT_PIXELS = 10_000 * 10_000;

type SharpModule = typeof sharpDefault;
let sharpModule: Promise<SharpModule> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

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
  const sharp = await loadSharp();
  try {
    const meta = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw new UnreadableImageError('the image has no size');
    const turned = (meta.orientation ?? 1) >= 5;
    const image = await toRaw(
      sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS })
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

/** The pixels in a buffer of their own, so they can be transferred to the worker without a copy. */
function transferable(image: RawImage): ArrayBuffer {
  const { data } = image;
  if (
    data.byteOffset === 0 &&
    data.byteLength === data.buffer.byteLength &&
    data.buffer instanceof ArrayBuffer
  ) {
    return data.buffer;
  }
  const copy = data.slice();
  image.data = copy;
  return copy.buffer;
}

const scaleBox = (box: Box, sx: number, sy: number): Box => [
  Math.round(box[0] * sx),
  Math.round(box[1] * sy),
  Math.round(box[2] * sx),
  Math.round(box[3] * sy),
];

/** How to start the worker: the bundled script, or (from source under tsx or vitest) the .ts through tsx. */
function workerScript(override: URL | undefined): { entry: string | URL; eval: boolean } {
  if (override) return { entry: override, eval: false };
  // Bundled, this module is dist/main.js and the worker dist/vision.worker.js beside it.
  if (!import.meta.url.endsWith('.ts'))
    return { entry: new URL('./vision.worker.js', import.meta.url), eval: false };
  // From source, the worker is TypeScript. Node 20 does not apply loader hooks given to a worker as
  // `--import`, so a two-line bootstrap registers tsx inside the worker and then imports it.
  const tsxApi = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const worker = new URL('./vision.worker.ts', import.meta.url).href;
  const code =
    `import(${JSON.stringify(pathToFileURL(tsxApi).href)})` +
    `.then(({ register }) => { register(); return import(${JSON.stringify(worker)}); });`;
  return { entry: code, eval: true };
}

/** A request before it is numbered. */
type NewRequest = VisionRequest extends infer R ? (R extends VisionRequest ? Omit<R, 'id'> : never) : never;

interface Job {
  request: NewRequest;
  transfer: ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker | undefined;
  running: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;
}

export function createLocalVisionEngine(options: LocalVisionOptions): VisionEngine {
  const { log } = options;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const settings: WorkerSettings = {
    minScores: { ...DEFAULT_MIN_SCORES, ...options.minScores },
    faceMinScore: options.faceMinScore ?? DEFAULT_FACE_MIN_SCORE,
  };
  const script = workerScript(options.workerUrl);
  const slots: Slot[] = Array.from({ length: concurrency }, () => ({
    worker: undefined,
    running: undefined,
  }));
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function stop(slot: Slot, reason: Error): void {
    const { worker, running } = slot;
    slot.worker = undefined;
    slot.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.reject(reason);
    }
    if (worker) {
      worker.removeAllListeners();
      // A late 'error' after termination must not become an uncaught exception.
      worker.on('error', () => undefined);
      void worker.terminate();
    }
  }

  function start(slot: Slot): Worker {
    const worker = new Worker(script.entry, { workerData: settings, eval: script.eval });
    worker.unref();
    worker.on('message', (reply: VisionReply) => {
      if (reply.type === 'log') {
        if (reply.level === 'warn') log.warn({ vision: reply.message }, 'vision worker');
        else log.debug({ vision: reply.message }, 'vision worker');
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
      worker.unref();
      if (reply.type === 'result') running.job.resolve(reply.result);
      else running.job.reject(new Error(`vision failed: ${reply.error}`));
      pump();
    });
    worker.on('error', (err) => {
      log.error({ err }, 'the vision worker crashed');
      stop(slot, new Error(`the vision worker crashed: ${err.message}`, { cause: err }));
      pump();
    });
    worker.on('exit', (code) => {
      if (slot.worker !== worker) return;
      log.error({ code }, 'the vision worker exited');
      stop(slot, new Error(`the vision worker exited with code ${code}`));
      pump();
    });
    slot.worker = worker;
    return worker;
  }

  function pump(): void {
    for (const slot of slots) {
      if (closed || queue.length === 0) return;
      if (slot.running) continue;
      const job = queue.shift()!;
      const worker = slot.worker ?? start(slot);
      const id = nextId++;
      const timer = setTimeout(() => {
        log.error({ timeoutMs }, 'the vision worker did not answer in time; restarting it');
        stop(slot, new Error(`vision took longer than ${timeoutMs} ms`));
        pump();
      }, timeoutMs);
      slot.running = { id, job, timer };
      // A busy worker keeps the process alive (a script awaiting its answer); an idle one does not.
      worker.ref();
      worker.postMessage({ ...job.request, id }, job.transfer);
    }
  }

  function submit<T>(request: NewRequest, transfer: ArrayBuffer[]): Promise<T> {
    if (closed) return Promise.reject(new Error('the vision engine is closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({ request, transfer, resolve: resolve as (value: unknown) => void, reject });
      pump();
    });
  }

  return {
    kind: 'local',

    async analyse(jpeg: Buffer, opts?: AnalyseOptions): Promise<VisionResult> {
      const decoded = await decode(jpeg, ANALYSE_EDGE);
      const { detect, detectScale } = await letterbox(decoded.image);
      const reply = await submit<AnalyseReply>(
        { type: 'analyse', image: decoded.image, detect, detectScale, faces: opts?.faces ?? false },
        [transferable(decoded.image), transferable(detect)],
      );
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
      const faces = await submit<DetectedFace[]>({ type: 'embed', image: decoded.image }, [
        transferable(decoded.image),
      ]);
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
          const worker = slot.worker;
          stop(slot, reason);
          if (worker) await worker.terminate();
        }),
      );
    },
  };
}
