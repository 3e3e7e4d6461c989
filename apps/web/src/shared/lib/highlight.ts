import { useEffect, useState } from 'react';

/** Fired when a banner is clicked while its screen is already open: that screen draws attention to the setting. */
export const HIGHLIGHT_EVENT = 'homesitter:highlight';
const HIGHLIGHT_MS = 1_500;

export function emitHighlight(target: string) {
  window.dispatchEvent(new CustomEvent<string>(HIGHLIGHT_EVENT, { detail: target }));
}

/** True for a moment after `emitHighlight(target)`. */
export function useHighlight(target: string): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const handler = (event: Event) => {
      if ((event as CustomEvent<string>).detail !== target) return;
      setOn(false);
      requestAnimationFrame(() => setOn(true));
      clearTimeout(timer);
      timer = setTimeout(() => setOn(false), HIGHLIGHT_MS);
    };
    window.addEventListener(HIGHLIGHT_EVENT, handler);
    return () => {
      window.removeEventListener(HIGHLIGHT_EVENT, handler);
      clearTimeout(timer);
    };
  }, [target]);
  return on;
}
