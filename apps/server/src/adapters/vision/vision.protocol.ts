import type { DetectedFace, DetectedObject, ObjectKind } from './vision.js';

/**
 * Messages between `local.vision.ts` (the server) and `vision.worker.ts` (its vision process), over the IPC
 * channel of `child_process.fork` with advanced serialization: images cross as raw RGB bytes (a typed array,
 * not a JSON list of numbers; ~9 ms for a 1080p frame). Coordinates in replies are pixels of that decoded
 * image, which the server scales back to the size of the image it was given.
 */

export interface RawImage {
  /** Packed RGB, `width * height * 3` bytes. */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface WorkerSettings {
  minScores: Record<ObjectKind, number>;
  faceMinScore: number;
}

export type VisionRequest =
  /**
   * `image` is the picture faces are cut from and boxes refer to; `detect` the same picture letterboxed into
   * the detector's square (top-left aligned, padded right or below), `detectScale` image pixels per detect pixel.
   */
  | { id: number; type: 'analyse'; image: RawImage; detect: RawImage; detectScale: number; faces: boolean }
  | { id: number; type: 'embed'; image: RawImage };

export interface AnalyseReply {
  objects: DetectedObject[];
  faces: DetectedFace[];
}

export type VisionReply =
  | { type: 'result'; id: number; result: AnalyseReply | DetectedFace[] }
  | { type: 'failed'; id: number; error: string }
  /** The models could not be loaded: the worker is of no use and is stopped. */
  | { type: 'fatal'; error: string }
  /** Library chatter (tfjs, human, face-api print to the console), routed to the server's logger. */
  | { type: 'log'; level: 'debug' | 'warn'; message: string };
