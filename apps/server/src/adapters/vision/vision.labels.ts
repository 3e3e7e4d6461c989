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
 * The lowest detector score reported per kind, chosen with `npm run eval:vision` on the tuning half of the
 * real camera set (docs/vision.md, "Eval on real camera footage"): the middle of the gap between the
 * highest score of a kind where it is not there and the lowest where it is found. Person 0.17 (0.13 … 0.21),
 * animal 0.25 (0.20 … 0.29); vehicle stays 0.25, below which precision falls under 0.9. The test media
 * (`test-media/`) keep every result at these.
 */
export const DEFAULT_MIN_SCORES: Record<ObjectKind, number> = { person: 0.17, vehicle: 0.25, animal: 0.25 };

/** Faces below this SSD score are not reported (face-api's own default). */
export const DEFAULT_FACE_MIN_SCORE = 0.5;
