/** Test pictures for the pure vision helpers: packed RGB, no decoding. */
import type { Box } from './vision.js';

/** A width×height RGB image of one colour, with an optional rectangle painted in another. */
export function solidImage(
  width: number,
  height: number,
  fill: number[],
  patch?: { box: Box; rgb: number[] },
) {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inPatch =
        patch &&
        x >= patch.box[0] &&
        x < patch.box[0] + patch.box[2] &&
        y >= patch.box[1] &&
        y < patch.box[1] + patch.box[3];
      data.set(inPatch ? patch.rgb : fill, (y * width + x) * 3);
    }
  }
  return data;
}
