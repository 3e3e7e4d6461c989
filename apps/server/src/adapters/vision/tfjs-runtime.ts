/**
 * The models of the vision worker on ONE copy of TensorFlow.js (tfjs-core 4.22 + the WASM backend), shared by
 * human (CenterNet objects) and face-api (SSD MobileNet v1 faces, 68 landmarks, 128-D ResNet descriptors).
 * Runs inside the vision process only (`vision.worker.ts`).
 *
 * Why one copy, and how. Both libraries ship builds that bundle their own tfjs. Two copies in one thread share
 * tfjs' engine and kernel registry (tfjs keeps them on `globalThis`), but each registers the WASM backend and
 * its kernels against its own WASM module: the second registration is skipped with a warning, so kernels of
 * one copy run against the other's backend, and every model's memory is held twice. Instead:
 * - human's `node-wasm` build `require`s `@tensorflow/tfjs-core`, `-converter` and `-backend-wasm`: it uses
 *   the single copies in node_modules as they are.
 * - face-api's `node-wasm` build `require`s the umbrella `@tensorflow/tfjs` (core + layers + data + webgl),
 *   which is not installed, but face-api only calls core ops. That one file is evaluated with a `require` that
 *   answers tfjs-core for it, and the tensor "chained ops" (`t.as3D()`, `t.sub()`…) that the umbrella package
 *   would have registered are added here (tfjs-core ships them only as extension-less ES modules, which Node
 *   cannot load).
 * Nothing is fetched: human's graph model is read through a `disk:` IO router (its node build would fetch
 * `modelBasePath` over HTTP), face-api's weights with its own `loadFromDisk`, and the WASM binary from
 * tfjs-backend-wasm's `dist` folder (human would otherwise point it at a CDN). In Node the WASM backend runs
 * single-threaded with SIMD; one worker keeps one core busy.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import type * as Tf from '@tensorflow/tfjs-core';
import type * as FaceApi from '@vladmandic/face-api';
import { installLowMemorySsd } from './ssd-forward.js';
import type { Config as HumanConfig, Human, Result as HumanResult } from '@vladmandic/human';

const require = createRequire(import.meta.url);

/** An object as the detector reports it, before our classes and thresholds: box normalised to 0..1. */
export interface RawObject {
  label: string;
  score: number;
  /** [x, y, width, height] as fractions of the input's width and height. */
  boxRaw: [number, number, number, number];
}

/** A face in pixels of the tensor it was found in. */
export interface RawFace {
  box: [number, number, number, number];
  score: number;
  descriptor: Float32Array;
}

export interface VisionRuntime {
  tf: typeof Tf;
  /** Bytes of the WASM heap (it grows to the largest model's working set and never shrinks). */
  heapBytes(): number;
  /** Objects in an RGB image tensor [height, width, 3] (any size; CenterNet looks at it at 512×512). */
  detectObjects(image: Tf.Tensor3D, minScore: number): Promise<RawObject[]>;
  /** Faces with their descriptors in an RGB image tensor [height, width, 3]. */
  detectFaces(image: Tf.Tensor3D, minScore: number): Promise<RawFace[]>;
}

/** The folder a package's file lives in, found from its main entry (their `exports` maps hide the rest). */
function packageRoot(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(join('node_modules', ...name.split('/')))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = parent;
  }
  return dir;
}

interface GraphModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
  userDefinedMetadata?: Record<string, object>;
  modelInitializer?: object;
  weightsManifest: { paths: string[]; weights: Tf.io.WeightsManifestEntry[] }[];
}

const DISK_SCHEME = 'disk:';

/** Lets `tf.loadGraphModel('disk:/path/model.json')` (and human's loader) read a model and its shards from disk. */
function registerDiskLoader(tf: typeof Tf): void {
  const router = (url: string | string[]): Tf.io.IOHandler | null => {
    if (typeof url !== 'string' || !url.startsWith(DISK_SCHEME)) return null;
    const file = url.slice(DISK_SCHEME.length);
    return {
      async load(): Promise<Tf.io.ModelArtifacts> {
        const json = JSON.parse(await readFile(file, 'utf8')) as GraphModelJson;
        const shards = await Promise.all(
          json.weightsManifest.flatMap((group) => group.paths.map((p) => readFile(join(dirname(file), p)))),
        );
        const weights = Buffer.concat(shards);
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
          modelInitializer: json.modelInitializer,
          weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
          weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
        };
      },
    };
  };
  // tfjs asks every router and skips those answering null, though its type says a router always answers.
  tf.io.registerLoadRouter(router as Parameters<typeof tf.io.registerLoadRouter>[0]);
}

/** Tensor methods that call the op of the same name with the tensor first (tfjs' public/chained_ops). */
const CHAINED_OPS = (
  'abs acos acosh add all any argMax argMin asin asinh atan atan2 atanh avgPool batchToSpaceND batchNorm ' +
  'broadcastTo cast ceil clipByValue conv1d conv2d conv2dTranspose cos cosh cumprod cumsum depthToSpace ' +
  'depthwiseConv2d dilation2d div divNoNan dot elu equal erf euclideanNorm exp expandDims expm1 floor ' +
  'floorDiv gather greater greaterEqual isFinite isInf isNaN leakyRelu less lessEqual ' +
  'localResponseNormalization log log1p logSigmoid logSoftmax logSumExp logicalAnd logicalNot logicalOr ' +
  'logicalXor matMul max maxPool maximum mean min minimum mirrorPad mod mul neg norm notEqual oneHot ' +
  'onesLike pad pool pow prelu prod reciprocal relu relu6 reshape reverse round rsqrt selu ' +
  'separableConv2d sigmoid sign sin sinh slice softmax softplus spaceToBatchND split sqrt square ' +
  'squaredDifference squeeze step stridedSlice sub sum tan tanh tile topk transpose unique ' +
  'unsortedSegmentSum unstack zerosLike'
).split(' ');

type AnyOp = (...args: unknown[]) => Tf.Tensor;

/** Registers tfjs' chained tensor methods on the one Tensor class (what `@tensorflow/tfjs` does on import). */
function registerChainedOps(tf: typeof Tf): void {
  // The prototype is extended at runtime on purpose; tfjs-core's own typings do not describe these methods.
  const proto = tf.Tensor.prototype as unknown as Record<string, unknown>;
  const ops = tf as unknown as Record<string, AnyOp | undefined>;
  const image = tf.image as unknown as Record<string, AnyOp | undefined>;
  const define = (name: string, fn: (this: Tf.Tensor, ...args: unknown[]) => Tf.Tensor) => {
    if (!(name in proto)) proto[name] = fn;
  };
  for (const name of [...CHAINED_OPS, 'resizeBilinear', 'resizeNearestNeighbor']) {
    const op = ops[name] ?? image[name];
    if (!op) throw new Error(`tfjs-core has no op ${name}`);
    define(name, function (...args) {
      return op(this, ...args);
    });
  }
  const reshape = (t: Tf.Tensor, shape: unknown[]) => tf.reshape(t, shape as number[]);
  define('as1D', function () {
    return reshape(this, [this.size]);
  });
  define('flatten', function () {
    return reshape(this, [this.size]);
  });
  define('as2D', function (...dims) {
    return reshape(this, dims.slice(0, 2));
  });
  define('as3D', function (...dims) {
    return reshape(this, dims.slice(0, 3));
  });
  define('as4D', function (...dims) {
    return reshape(this, dims.slice(0, 4));
  });
  define('as5D', function (...dims) {
    return reshape(this, dims.slice(0, 5));
  });
  define('asScalar', function () {
    return reshape(this, []);
  });
  define('reshapeAs', function (other) {
    return reshape(this, (other as Tf.Tensor).shape);
  });
  define('asType', function (dtype) {
    return tf.cast(this, dtype as Tf.DataType);
  });
  define('toFloat', function () {
    return tf.cast(this, 'float32');
  });
  define('toInt', function () {
    return tf.cast(this, 'int32');
  });
  define('toBool', function () {
    return tf.cast(this, 'bool');
  });
  const list = (x: unknown): Tf.Tensor[] => (x instanceof tf.Tensor ? [x as Tf.Tensor] : (x as Tf.Tensor[]));
  define('concat', function (x, axis) {
    return tf.concat([this, ...list(x)], axis as number | undefined);
  });
  define('stack', function (x, axis) {
    return tf.stack([this, ...list(x)], axis as number | undefined);
  });
  define('where', function (condition, x) {
    return tf.where(condition as Tf.Tensor, this, x as Tf.Tensor);
  });
}

/** face-api's node-wasm build, evaluated with tfjs-core standing in for the umbrella `@tensorflow/tfjs`. */
async function loadFaceApi(tf: typeof Tf): Promise<typeof FaceApi> {
  const file = join(packageRoot('@vladmandic/face-api'), 'dist', 'face-api.node-wasm.js');
  const source = await readFile(file, 'utf8');
  const fileRequire = createRequire(file);
  const module = { exports: {} as typeof FaceApi };
  const factory = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], {
    filename: file,
  }) as (exports: object, req: (id: string) => unknown, module: object, f: string, d: string) => void;
  factory(
    module.exports,
    (id) => (id === '@tensorflow/tfjs' ? tf : fileRequire(id)),
    module,
    file,
    dirname(file),
  );
  return module.exports;
}

export async function loadVisionRuntime(): Promise<VisionRuntime> {
  const tf = require('@tensorflow/tfjs-core') as typeof Tf;
  require('@tensorflow/tfjs-backend-wasm');
  registerChainedOps(tf);
  registerDiskLoader(tf);

  const humanRoot = packageRoot('@vladmandic/human');
  const { Human: HumanClass } = require(join(humanRoot, 'dist', 'human.node-wasm.js')) as {
    Human: new (config: Partial<HumanConfig>) => Human;
  };
  const human = new HumanClass({
    backend: 'wasm',
    wasmPath: `${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`,
    modelBasePath: `${DISK_SCHEME}${join(humanRoot, 'models')}/`,
    cacheModels: false,
    validateModels: false,
    debug: false,
    warmup: 'none',
    // Every image is a new scene: no frame-to-frame caching, no skipped frames.
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: { enabled: true, modelPath: 'centernet.json', maxDetected: 50, iouThreshold: 0.4 },
  });
  await human.load();
  if (tf.getBackend() !== 'wasm') throw new Error(`the WASM backend did not start (${tf.getBackend()})`);
  tf.enableProdMode();

  const faceapi = await loadFaceApi(tf);
  const faceModels = join(packageRoot('@vladmandic/face-api'), 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(faceModels);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(faceModels);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(faceModels);
  // The typings describe face-api's public surface; the network's params and forwardInput are what we swap.
  installLowMemorySsd(
    tf,
    faceapi.nets.ssdMobilenetv1 as unknown as Parameters<typeof installLowMemorySsd>[1],
  );

  const backend = tf.backend() as unknown as { wasm?: { HEAPU8?: Uint8Array } };
  return {
    tf,
    heapBytes: () => backend.wasm?.HEAPU8?.length ?? 0,
    async detectObjects(image, minScore) {
      const batch = tf.expandDims<Tf.Tensor4D>(image, 0);
      try {
        const result: HumanResult = await human.detect(batch, { object: { minConfidence: minScore } });
        if (result.error) throw new Error(`object detection failed: ${result.error}`);
        return result.object.map((o) => ({ label: o.label, score: o.score, boxRaw: o.boxRaw }));
      } finally {
        tf.dispose(batch);
      }
    },
    async detectFaces(image, minScore) {
      const found = await faceapi
        .detectAllFaces(image, new faceapi.SsdMobilenetv1Options({ minConfidence: minScore, maxResults: 20 }))
        .withFaceLandmarks()
        .withFaceDescriptors();
      return found.map((f) => ({
        box: [f.detection.box.x, f.detection.box.y, f.detection.box.width, f.detection.box.height],
        score: f.detection.score,
        descriptor: f.descriptor,
      }));
    },
  };
}
