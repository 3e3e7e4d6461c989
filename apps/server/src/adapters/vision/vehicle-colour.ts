import type { Box, ColourName } from './vision.js';

/**
 * The paint colour of a vehicle from the pixels of its box: the centre of the box (mostly body; the edges
 * are road, sky and neighbours), each pixel named by hue, saturation and brightness, then a vote. Windows,
 * tyres, shadows and tarmac are grey or black whatever the paint, so a colour with a fair share of the
 * vote beats the achromatic names; without one the commonest of white, silver, grey and black wins.
 */

/** Share of the sampled pixels a chromatic colour needs to be the vehicle's colour. */
const CHROMATIC_SHARE = 0.25;
/** Pixels sampled at most (a stride over the region keeps big boxes cheap). */
const MAX_SAMPLES = 4_000;
const MIN_SAMPLES = 16;

export function colourOfPixel(r: number, g: number, b: number): ColourName {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const v = max / 255;
  const s = max === 0 ? 0 : (max - min) / max;
  if (v < 0.2) return 'black';
  if (s < 0.2 || (s < 0.3 && v < 0.35)) {
    if (v >= 0.8) return 'white';
    if (v >= 0.55) return 'silver';
    if (v >= 0.28) return 'grey';
    return 'black';
  }
  let h: number;
  const d = max - min;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  h = (h * 60 + 360) % 360;
  if (h < 15 || h >= 330) return v < 0.35 && s < 0.6 ? 'brown' : 'red';
  if (h < 45) return v < 0.6 || s < 0.45 ? 'brown' : 'orange';
  if (h < 70) return v < 0.45 ? 'brown' : 'yellow';
  if (h < 165) return 'green';
  if (h < 260) return 'blue';
  return 'purple';
}

const ACHROMATIC = new Set<ColourName>(['white', 'silver', 'grey', 'black']);

/**
 * @param rgb packed RGB pixels, `width * height * 3` bytes
 * @param box the vehicle in those pixels
 * @returns the colour, or undefined when the box is too small to tell
 */
export function dominantColour(
  rgb: Uint8Array,
  width: number,
  height: number,
  box: Box,
): ColourName | undefined {
  const [bx, by, bw, bh] = box;
  // The middle half across and the middle band down: body panels, not wheels, roof edge or kerb.
  const x0 = Math.max(0, Math.floor(bx + bw * 0.25));
  const x1 = Math.min(width, Math.ceil(bx + bw * 0.75));
  const y0 = Math.max(0, Math.floor(by + bh * 0.3));
  const y1 = Math.min(height, Math.ceil(by + bh * 0.8));
  const area = (x1 - x0) * (y1 - y0);
  if (x1 <= x0 || y1 <= y0 || area < MIN_SAMPLES) return undefined;
  const stride = Math.max(1, Math.floor(Math.sqrt(area / MAX_SAMPLES)));
  const votes = new Map<ColourName, number>();
  let total = 0;
  for (let y = y0; y < y1; y += stride) {
    for (let x = x0; x < x1; x += stride) {
      const i = (y * width + x) * 3;
      const name = colourOfPixel(rgb[i] ?? 0, rgb[i + 1] ?? 0, rgb[i + 2] ?? 0);
      votes.set(name, (votes.get(name) ?? 0) + 1);
      total++;
    }
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const chromatic = ranked.find(([name]) => !ACHROMATIC.has(name));
  if (chromatic && chromatic[1] >= total * CHROMATIC_SHARE) return chromatic[0];
  return ranked.find(([name]) => ACHROMATIC.has(name))?.[0];
}
