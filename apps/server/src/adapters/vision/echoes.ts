import { area } from './face-regions.js';
import type { Box, DetectedObject } from './vision.js';

/**
 * CenterNet often answers one person twice: the body at a good score and, much weaker, a box around the whole
 * picture or around part of the body (a portrait became "two people"). A weak box that lies almost wholly
 * inside a much stronger one of the same label, or holds one almost wholly, is that echo. People standing in
 * front of each other are kept: both score alike, and their boxes overlap only in part.
 */
export const ECHO_CONTAINMENT = 0.8;
/** An echo scores at most this share of the box it repeats. */
export const ECHO_SCORE_RATIO = 0.5;

function intersection(a: Box, b: Box): number {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

function repeats(weak: DetectedObject, strong: DetectedObject): boolean {
  if (weak.label !== strong.label || weak.score > strong.score * ECHO_SCORE_RATIO) return false;
  const smaller = Math.min(area(weak.box), area(strong.box));
  return smaller > 0 && intersection(weak.box, strong.box) >= ECHO_CONTAINMENT * smaller;
}

/** The objects without their echoes; `objects` sorted by score, strongest first. */
export function dropEchoes<T extends DetectedObject>(objects: T[]): T[] {
  const kept: T[] = [];
  for (const object of objects) if (!kept.some((k) => repeats(object, k))) kept.push(object);
  return kept;
}
