/**
 * The vision process (started by `local.vision.ts` with `child_process.fork`): loads the models once (see
 * tfjs-runtime.ts), then answers one request at a time over the IPC channel. Inference is synchronous WASM;
 * it runs here so the server's event loop never waits on it, and its memory (the models, the WASM heap) is
 * this process's, freed when it stops. It exits when the server goes away.
 */
import { format } from 'node:util';
import type * as Tf from '@tensorflow/tfjs-core';
import { MIN_FACE_SIZE, cropRgb, dedupeFaces, faceSearchRegions, nearPerson } from './face-regions.js';
import { dropEchoes } from './echoes.js';
import { loadVisionRuntime, type RawFace, type VisionRuntime } from './tfjs-runtime.js';
import { dominantColour } from './vehicle-colour.js';
import type { Box, DetectedFace, DetectedObject } from './vision.js';
import { kindOfLabel } from './vision.labels.js';
import type {
  AnalyseReply,
  RawImage,
  VisionReply,
  VisionRequest,
  WorkerSettings,
} from './vision.protocol.js';

if (!process.send) throw new Error('vision.worker.ts runs as a child process (child_process.fork)');
const send = process.send.bind(process);
const settings = JSON.parse(process.argv[2] ?? '') as WorkerSettings;
const post = (reply: VisionReply) => {
  // The channel is gone when the server stopped or let this process go: there is nobody left to tell. It
  // can also close while a reply is being written (EPIPE): that is the same news, not a crash.
  if (process.connected) send(reply, undefined, undefined, (err) => err && process.exit(0));
};
// Never outlive the server: a closed channel means it exited, crashed or stopped this process.
process.on('disconnect', () => process.exit(0));

// The libraries print progress and warnings to the console; they belong in the server's log.
const levels = { log: 'debug', info: 'debug', debug: 'debug', warn: 'warn', error: 'warn' } as const;
for (const [method, level] of Object.entries(levels)) {
  (console as unknown as Record<string, (...args: unknown[]) => void>)[method] = (...args) =>
    post({ type: 'log', level, message: format(...args) });
}

function tensorOf(tf: typeof Tf, image: RawImage): Tf.Tensor3D {
  return tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
}

/** A box clipped to the image, in whole pixels (a detection may reach into the letterbox's padding). */
function inside(box: Box, image: RawImage): Box {
  const x0 = Math.max(0, Math.round(box[0]));
  const y0 = Math.max(0, Math.round(box[1]));
  const x1 = Math.min(image.width, Math.round(box[0] + box[2]));
  const y1 = Math.min(image.height, Math.round(box[1] + box[3]));
  return [x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0)];
}

const round = (box: Box): Box => [
  Math.round(box[0]),
  Math.round(box[1]),
  Math.round(box[2]),
  Math.round(box[3]),
];

/** A face found in a region that starts at (offsetX, offsetY) of the image, in the image's pixels. */
function toFace(face: RawFace, offsetX = 0, offsetY = 0): DetectedFace {
  return {
    box: round([offsetX + face.box[0], offsetY + face.box[1], face.box[2], face.box[3]]),
    score: face.score,
    descriptor: Array.from(face.descriptor),
  };
}

async function facesIn(rt: VisionRuntime, image: RawImage): Promise<DetectedFace[]> {
  const tensor = tensorOf(rt.tf, image);
  try {
    const faces = await rt.detectFaces(tensor, settings.faceMinScore);
    return faces.map((f) => toFace(f)).filter((f) => f.box[2] >= MIN_FACE_SIZE);
  } finally {
    tensor.dispose();
  }
}

/**
 * Faces of the people in an image: searched in each person's head region; when those hold none (a box that
 * caught only a torso, say), once in the whole image, keeping the faces that sit with a person.
 */
async function facesInPeople(rt: VisionRuntime, image: RawImage, people: Box[]): Promise<DetectedFace[]> {
  const regions = faceSearchRegions(people, image.width, image.height);
  if (regions.length === 0) return [];
  const found: DetectedFace[] = [];
  for (const region of regions) {
    const crop = tensorOf(rt.tf, {
      data: cropRgb(image.data, image.width, region),
      width: region[2],
      height: region[3],
    });
    try {
      for (const face of await rt.detectFaces(crop, settings.faceMinScore)) {
        found.push(toFace(face, region[0], region[1]));
      }
    } finally {
      crop.dispose();
    }
  }
  const faces = dedupeFaces(found.filter((f) => f.box[2] >= MIN_FACE_SIZE));
  if (faces.length > 0) return faces;
  return (await facesIn(rt, image)).filter((f) => nearPerson(f.box, people));
}

async function analyse(
  rt: VisionRuntime,
  request: Extract<VisionRequest, { type: 'analyse' }>,
): Promise<AnalyseReply> {
  const { image, detect } = request;
  const floor = Math.min(...Object.values(settings.minScores));
  const input = tensorOf(rt.tf, detect);
  let raw;
  try {
    raw = await rt.detectObjects(input, floor);
  } finally {
    input.dispose();
  }
  const objects: DetectedObject[] = [];
  for (const o of raw) {
    const kind = kindOfLabel(o.label);
    if (!kind || o.score < settings.minScores[kind]) continue;
    const box = inside(
      o.boxRaw.map((v, i) => v * (i % 2 === 0 ? detect.width : detect.height) * request.detectScale) as Box,
      image,
    );
    if (box[2] === 0 || box[3] === 0) continue;
    const object: DetectedObject = { kind, label: o.label, score: o.score, box };
    // A bicycle's box is mostly what is behind its frame.
    if (kind === 'vehicle' && o.label !== 'bicycle') {
      const color = dominantColour(image.data, image.width, image.height, box);
      if (color) object.color = color;
    }
    objects.push(object);
  }
  objects.sort((a, b) => b.score - a.score);
  const kept = dropEchoes(objects);
  const people = kept.filter((o) => o.kind === 'person').map((o) => o.box);
  const faces = request.faces && people.length > 0 ? await facesInPeople(rt, image, people) : [];
  return { objects: kept, faces };
}

const runtime = loadVisionRuntime();
runtime.catch((err: unknown) => {
  post({ type: 'fatal', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});

// The server sends one request at a time; the chain keeps that true even if it did not.
let queue = Promise.resolve();
process.on('message', (request: VisionRequest) => {
  queue = queue.then(async () => {
    try {
      const rt = await runtime;
      const started = performance.now();
      const result =
        request.type === 'analyse' ? await analyse(rt, request) : await facesIn(rt, request.image);
      post({
        type: 'log',
        level: 'debug',
        message: format(
          '%s in %d ms; WASM heap %d MB, %d tensors',
          request.type,
          Math.round(performance.now() - started),
          Math.round(rt.heapBytes() / 1e6),
          rt.tf.memory().numTensors,
        ),
      });
      post({ type: 'result', id: request.id, result });
    } catch (err) {
      post({ type: 'failed', id: request.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
});
