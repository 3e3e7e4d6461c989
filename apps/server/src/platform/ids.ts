import { createHash } from 'node:crypto';

/**
 * A UUID (version 5 layout) derived from `seed`: the same seed always gives the same id, so a retried job
 * that posts "the same" row finds the one it posted before instead of adding a second.
 */
export function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}
