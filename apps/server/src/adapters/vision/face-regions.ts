import type { Box } from './vision.js';

/**
 * Where the face detector looks in a camera image: around each person, not the whole frame. SSD MobileNet
 * sees its input at 512×512, so in a 1080p frame a face at the door would shrink to a few pixels; cut out
 * of the person's box it keeps its detail, and nothing that is not a person can be taken for a face.
 */

/** Faces narrower than this (pixels) are skipped: their descriptors are too noisy to identify anyone. */
export const MIN_FACE_SIZE = 32;
/**
 * People narrower than this (pixels) are not searched. Shoulders are two to three faces wide whether the box
 * holds a whole standing body or a head-and-shoulders close-up, so a narrower person cannot show a face of
 * MIN_FACE_SIZE (the small pedestrians of a car park, for instance).
 */
export const MIN_PERSON_WIDTH = 2.5 * MIN_FACE_SIZE;
/** At most this many face searches per image (each costs one SSD pass): the largest people first. */
export const MAX_FACE_REGIONS = 4;

export function area(box: Box): number {
  return Math.max(0, box[2]) * Math.max(0, box[3]);
}

function intersection(a: Box, b: Box): number {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

export function iou(a: Box, b: Box): number {
  const i = intersection(a, b);
  return i === 0 ? 0 : i / (area(a) + area(b) - i);
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

/** Whole pixels inside the image. */
function clamp(box: Box, width: number, height: number): Box {
  const x0 = Math.max(0, Math.floor(box[0]));
  const y0 = Math.max(0, Math.floor(box[1]));
  const x1 = Math.min(width, Math.ceil(box[0] + box[2]));
  const y1 = Math.min(height, Math.ceil(box[1] + box[3]));
  return [x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0)];
}

/**
 * The part of a person's box a face can be in, with a margin (a box often clips the top of the head). A
 * standing person's face is in the upper part, so a tall box is cut to a roughly square top; a close-up or
 * someone lying down keeps the whole box.
 */
export function headRegion(person: Box, width: number, height: number): Box {
  const [x, y, w, h] = person;
  const marginX = w * 0.15;
  const top = y - h * 0.2;
  const regionW = w + 2 * marginX;
  const fullH = h * 1.25;
  const regionH = Math.min(fullH, Math.max(regionW * 1.25, h * 0.5));
  return clamp([x - marginX, top, regionW, regionH], width, height);
}

/**
 * The regions to search for faces: the head regions of the largest people (at most MAX_FACE_REGIONS), where
 * two regions that mostly overlap (a group standing together) become one.
 */
export function faceSearchRegions(people: Box[], width: number, height: number): Box[] {
  let regions = people
    .filter((p) => p[2] >= MIN_PERSON_WIDTH && p[3] >= MIN_FACE_SIZE)
    .sort((a, b) => area(b) - area(a))
    .slice(0, MAX_FACE_REGIONS)
    .map((p) => headRegion(p, width, height))
    .filter((r) => area(r) > 0);
  for (let merged = true; merged;) {
    merged = false;
    outer: for (let i = 0; i < regions.length; i++) {
      for (let j = i + 1; j < regions.length; j++) {
        const a = regions[i]!;
        const b = regions[j]!;
        if (intersection(a, b) > 0.5 * Math.min(area(a), area(b))) {
          regions = [...regions.filter((_, k) => k !== i && k !== j), union(a, b)];
          merged = true;
          break outer;
        }
      }
    }
  }
  return regions;
}

/**
 * Whether a face found in the whole image belongs to one of the people: its centre lies in a person's box
 * widened by half its width on each side and raised by half its height (a detector's person box sometimes
 * holds only the torso, with the head above it).
 */
export function nearPerson(face: Box, people: Box[]): boolean {
  const cx = face[0] + face[2] / 2;
  const cy = face[1] + face[3] / 2;
  return people.some(
    ([x, y, w, h]) => cx >= x - w / 2 && cx <= x + w * 1.5 && cy >= y - h / 2 && cy <= y + h,
  );
}

/** A copy of a rectangle of packed RGB pixels. */
export function cropRgb(rgb: Uint8Array, width: number, region: Box): Uint8Array {
  const [x, y, w, h] = region;
  const out = new Uint8Array(w * h * 3);
  for (let row = 0; row < h; row++) {
    const from = ((y + row) * width + x) * 3;
    out.set(rgb.subarray(from, from + w * 3), row * w * 3);
  }
  return out;
}

/** Drops the weaker of two detections of the same face (found in two overlapping regions). */
export function dedupeFaces<T extends { box: Box; score: number }>(faces: T[]): T[] {
  const kept: T[] = [];
  for (const face of [...faces].sort((a, b) => b.score - a.score)) {
    if (!kept.some((k) => iou(k.box, face.box) > 0.3)) kept.push(face);
  }
  return kept;
}
