import type { ActivityObject } from '../../platform/db/schema.js';
import type { DetectedFace, VisionResult } from '../../adapters/vision/vision.js';
import { faceDistance } from '../recognition/recognition.module.js';

/**
 * One activity is several frames (the snapshots, or 3–5 frames of a clip); what is stored is one answer for
 * the event. Objects: per kind and label the best-scoring sighting, with its box (the frame it was surest
 * in). Faces: the same person is usually in several frames, so faces closer than `SAME_PERSON_DISTANCE`
 * are one face, represented by its most confident sighting.
 */

/**
 * Below this euclidean distance two face descriptors are taken for the same person within one event. Tighter
 * than the recognition threshold: here a wrong merge would hide a second person from the alert.
 */
export const SAME_PERSON_DISTANCE = 0.5;

/**
 * A person whose box is less tall than this share of the frame is in the background: someone at the door or
 * in the driveway of a home camera stands far taller, a passer-by across the street or a stadium crowd far
 * smaller. (Blurred figures are mostly small ones too; the detector's own score drops them below its
 * minimum.)
 */
export const BACKGROUND_PERSON_HEIGHT = 0.08;

const inBackground = (o: VisionResult['objects'][number], frameHeight: number) =>
  o.kind === 'person' && frameHeight > 0 && o.box[3] < BACKGROUND_PERSON_HEIGHT * frameHeight;

export function mergeObjects(results: Pick<VisionResult, 'objects' | 'height'>[]): ActivityObject[] {
  const best = new Map<string, ActivityObject>();
  const most = new Map<string, number>();
  for (const { objects, height } of results) {
    const inFrame = new Map<string, number>();
    for (const o of objects) {
      const background = inBackground(o, height);
      const key = `${o.kind}/${o.label}${background ? '/background' : ''}`;
      inFrame.set(key, (inFrame.get(key) ?? 0) + 1);
      const seen = best.get(key);
      if (seen && seen.score >= o.score) continue;
      best.set(key, {
        kind: o.kind,
        label: o.label,
        score: round(o.score),
        box: o.box.map(Math.round) as [number, number, number, number],
        ...(o.color ? { color: o.color } : seen?.color ? { color: seen.color } : {}),
        ...(background ? { background: true as const } : {}),
      });
    }
    for (const [key, n] of inFrame) most.set(key, Math.max(most.get(key) ?? 0, n));
  }
  return [...best.entries()]
    .map(([key, o]) => ((most.get(key) ?? 1) > 1 ? { ...o, count: most.get(key) } : o))
    .sort((a, b) => b.score - a.score);
}

/**
 * The frame that shows the event best, for a clip's poster: the one with the surest person, else the surest
 * detection of any kind; -1 when nothing was detected in any (the poster cut at arrival stays).
 */
export function bestFrameIndex(results: readonly (Pick<VisionResult, 'objects'> | undefined)[]): number {
  const surest = (r: Pick<VisionResult, 'objects'> | undefined, person: boolean) =>
    Math.max(0, ...(r?.objects ?? []).filter((o) => !person || o.kind === 'person').map((o) => o.score));
  for (const person of [true, false]) {
    let best = -1;
    results.forEach((r, i) => {
      if (surest(r, person) > 0 && (best < 0 || surest(r, person) > surest(results[best], person))) best = i;
    });
    if (best >= 0) return best;
  }
  return -1;
}

/** The distinct faces of an event, most confident first. */
export function mergeFaces(results: Pick<VisionResult, 'faces'>[]): DetectedFace[] {
  const all = results.flatMap((r) => r.faces).sort((a, b) => b.score - a.score);
  const distinct: DetectedFace[] = [];
  for (const face of all)
    if (!distinct.some((d) => faceDistance(d.descriptor, face.descriptor) < SAME_PERSON_DISTANCE))
      distinct.push(face);
  return distinct;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
