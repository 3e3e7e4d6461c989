import type { PictureFocus } from '@homesitter/contract';

/** What the focus is computed from: a detection's kind and its [x, y, width, height] box in picture pixels. */
export interface FocusObject {
  kind: 'person' | 'vehicle' | 'animal';
  box?: [number, number, number, number];
  background?: true;
}

export const CENTRE: PictureFocus = { x: 0.5, y: 0.5 };

/**
 * How far above the people's box the focus sits, as a share of its height. The detector's box of a close-up
 * often starts at the chin or the shoulders (person-obama-1.jpg: its box begins below the face), so a focus
 * inside the box cut a portrait's card at the eyes; for a standing person, whose box starts at the hair, the
 * point lies just above the head, which a crop then keeps in frame.
 */
export const HEAD_SHARE = 0.15;

const clamp01 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 1000) / 1000;

/**
 * The point of a picture a crop should keep (fractions of its width and height, for CSS `object-position`):
 * just above the people in it (the union of their boxes, so a group and their faces stay in frame),
 * else the middle of the largest vehicle or animal, else the centre. People in the background count only when
 * nobody stands closer.
 */
export function focusOf(
  objects: readonly FocusObject[],
  width: number | null,
  height: number | null,
): PictureFocus {
  if (!width || !height) return CENTRE;
  const boxed = objects.filter((o): o is FocusObject & { box: [number, number, number, number] } => !!o.box);
  const people = boxed.filter((o) => o.kind === 'person');
  const near = people.filter((o) => !o.background);
  const group = near.length > 0 ? near : people;
  if (group.length > 0) {
    const left = Math.min(...group.map((o) => o.box[0]));
    const right = Math.max(...group.map((o) => o.box[0] + o.box[2]));
    const top = Math.min(...group.map((o) => o.box[1]));
    const bottom = Math.max(...group.map((o) => o.box[1] + o.box[3]));
    return {
      x: clamp01((left + right) / 2 / width),
      y: clamp01((top - HEAD_SHARE * (bottom - top)) / height),
    };
  }
  const largest = boxed.reduce<(typeof boxed)[number] | undefined>(
    (best, o) => (!best || o.box[2] * o.box[3] > best.box[2] * best.box[3] ? o : best),
    undefined,
  );
  if (!largest) return CENTRE;
  const [x, y, w, h] = largest.box;
  return { x: clamp01((x + w / 2) / width), y: clamp01((y + h / 2) / height) };
}
