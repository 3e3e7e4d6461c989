import type { ObjectKind } from './vision.js';

/**
 * The COCO classes of CenterNet that a home camera reports, by kind. Everything else (chairs, potted plants,
 * ties…) is ignored; so are vehicles that do not come up a drive (trains, boats, aeroplanes).
 */
const KIND_OF_LABEL: Record<string, ObjectKind> = {
  person: 'person',
  car: 'vehicle',
  truck: 'vehicle',
  bus: 'vehicle',
  motorcycle: 'vehicle',
  bicycle: 'vehicle',
  dog: 'animal',
  cat: 'animal',
  bird: 'animal',
  horse: 'animal',
  sheep: 'animal',
  cow: 'animal',
  bear: 'animal',
  elephant: 'animal',
  zebra: 'animal',
  giraffe: 'animal',
};

export function kindOfLabel(label: string): ObjectKind | undefined {
  return Object.hasOwn(KIND_OF_LABEL, label) ? KIND_OF_LABEL[label] : undefined;
}

/**
 * The lowest detector score reported per kind, chosen with `npm run eval:vision` on the test media
 * (docs/vision.md has the sweep): every labelled person, vehicle and animal scores at or above these, and
 * nothing in the empty scenes does.
 */
export const DEFAULT_MIN_SCORES: Record<ObjectKind, number> = { person: 0.3, vehicle: 0.25, animal: 0.3 };

/** Faces below this SSD score are not reported (face-api's own default). */
export const DEFAULT_FACE_MIN_SCORE = 0.5;
