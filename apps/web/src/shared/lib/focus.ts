import type { PictureFocus } from '@homesitter/contract';
import type { CSSProperties } from 'react';

/**
 * A cover crop that keeps what the server detected in the picture (its `focus`, fractions of the picture)
 * instead of the middle: the point at x% of the picture sits at x% of the frame, so it is always inside it.
 * Without a focus (an answer cached before the field existed) the crop stays centred.
 */
export function focusStyle(focus: PictureFocus | undefined): CSSProperties {
  if (!focus) return {};
  const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;
  return { objectPosition: `${pct(focus.x)} ${pct(focus.y)}` };
}
