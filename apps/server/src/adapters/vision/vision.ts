/**
 * The vision port (DESIGN.md "vision"): what is in a camera image, and the faces in a memory photo. One
 * implementation per file beside this one: `local.vision.ts` (models on the TensorFlow WASM backend in a
 * child process of the server) and `disabled.vision.ts` (`VISION_ENABLED=false`: sees nothing).
 *
 * Coordinates are pixels of the image as given (after its EXIF orientation), `[x, y, width, height]` from the
 * top-left corner, whatever size the engine worked at internally.
 */

export type ObjectKind = 'person' | 'vehicle' | 'animal';
export type Box = [x: number, y: number, width: number, height: number];

/** The colour names `DetectedObject.color` uses, and recognition compares memories' colours against. */
export const COLOUR_NAMES = [
  'white',
  'black',
  'grey',
  'silver',
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'brown',
] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];

export interface DetectedObject {
  kind: ObjectKind;
  /** The detector's class: `person`; `car`, `truck`, `bus`, `motorcycle`, `bicycle`; `dog`, `cat`, `bird`… */
  label: string;
  /** 0..1; only objects at or above their class's minimum score are reported. */
  score: number;
  box: Box;
  /** Vehicles only: the dominant colour of the body, when one stands out. */
  color?: ColourName;
}

export interface DetectedFace {
  box: Box;
  /** Face detector confidence, 0..1. */
  score: number;
  /** 128-D face descriptor; the euclidean distance between two says how alike the faces are. */
  descriptor: number[];
}

export interface VisionResult {
  /** Size of the image as given (after EXIF orientation). */
  width: number;
  height: number;
  objects: DetectedObject[];
  /** Faces found inside person boxes; empty unless asked for with `{ faces: true }`. */
  faces: DetectedFace[];
}

export interface AnalyseOptions {
  /** Also look for faces (inside the person boxes) and describe them. Only with the user's consent. */
  faces: boolean;
}

export interface VisionEngine {
  readonly kind: 'local' | 'disabled';
  /** People, vehicles and animals in a JPEG (or PNG/WebP) camera image, and optionally their faces. */
  analyse(image: Buffer, options?: AnalyseOptions): Promise<VisionResult>;
  /** Every face in the whole image, for the photos of a people memory. */
  embedFaces(image: Buffer): Promise<DetectedFace[]>;
  /** Stops the work behind the engine; calls still queued are rejected. */
  close(): Promise<void>;
}

/** An image the engine could not decode (not an image, truncated, too large): the caller's input, not a crash. */
export class UnreadableImageError extends Error {
  override name = 'UnreadableImageError';
}
