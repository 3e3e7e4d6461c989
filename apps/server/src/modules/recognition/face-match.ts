/**
 * Who is known in an image: faces against the examples of people memories (vehicles: vehicle-match.ts,
 * animals: animal-match.ts). Pure functions; the pipeline decides when recognition may run (consent).
 */

/** One example of a person's face: from a memory photo, or a face the owner confirmed or rejected. */
export interface FaceExample {
  memoryId: string;
  name: string;
  descriptor: number[];
  /** A face the owner said is not this person ("not Rose"). */
  negative: boolean;
}

export interface FaceMatch {
  memoryId: string;
  name: string;
  /** Euclidean distance to the memory's nearest positive example. */
  distance: number;
}

/**
 * Same person below this distance. Measured on the test media with face-api's descriptor: the same person
 * (three photos of identity A) is 0.43–0.47 apart, different people 0.74–0.97 apart; 0.6 sits in the middle of
 * that gap, and is dlib's published tolerance for this ResNet model (docs/vision.md).
 */
export const FACE_MATCH_THRESHOLD = 0.6;

/**
 * The nearest memory must be this much nearer than the next one. A genuine match on the fixtures is 0.43–0.47
 * from its memory and at least 0.74 from anyone else, a gap of over 0.25; two memories within 0.1 of each
 * other (look-alikes, or one person entered twice) are a coin toss, and an alert must not guess a name.
 */
export const FACE_MATCH_MARGIN = 0.1;

export function faceDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return Number.POSITIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

interface Candidate {
  memoryId: string;
  name: string;
  positive: number;
  negative: number;
}

/**
 * The person memory this face belongs to, or undefined. A memory qualifies when its nearest positive example
 * is under the threshold and no negative example of it is nearer (the owner already said a face like this is
 * not them). The nearest qualifying memory wins only if it is clearly nearer than every other qualifying one.
 */
export function matchFace(
  descriptor: readonly number[],
  examples: readonly FaceExample[],
  options: { threshold?: number; margin?: number } = {},
): FaceMatch | undefined {
  const threshold = options.threshold ?? FACE_MATCH_THRESHOLD;
  const margin = options.margin ?? FACE_MATCH_MARGIN;
  const byMemory = new Map<string, Candidate>();
  for (const example of examples) {
    const d = faceDistance(descriptor, example.descriptor);
    const c = byMemory.get(example.memoryId) ?? {
      memoryId: example.memoryId,
      name: example.name,
      positive: Number.POSITIVE_INFINITY,
      negative: Number.POSITIVE_INFINITY,
    };
    if (example.negative) c.negative = Math.min(c.negative, d);
    else c.positive = Math.min(c.positive, d);
    byMemory.set(example.memoryId, c);
  }
  const ranked = [...byMemory.values()]
    .filter((c) => Number.isFinite(c.positive) && c.negative >= c.positive)
    .sort((a, b) => a.positive - b.positive);
  const [best, next] = ranked;
  if (!best || best.positive >= threshold) return undefined;
  if (next && next.positive - best.positive < margin) return undefined;
  return { memoryId: best.memoryId, name: best.name, distance: best.positive };
}
