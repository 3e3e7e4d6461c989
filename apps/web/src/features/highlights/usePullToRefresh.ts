import { useEffect, useRef, useState } from 'react';

/** How far (px) a pull from the top must go to refresh. */
const THRESHOLD = 70;

/**
 * Pull to refresh on touch screens: dragging down from the top of the page past a threshold calls
 * `onRefresh`. Answers how far the pull has gone, for the indicator.
 */
export function usePullToRefresh(onRefresh: () => void) {
  const [pull, setPull] = useState(0);
  const start = useRef<number | null>(null);
  const latest = useRef(onRefresh);
  useEffect(() => {
    latest.current = onRefresh;
  });

  useEffect(() => {
    let distance = 0;
    const onStart = (e: TouchEvent) => {
      start.current = window.scrollY <= 0 ? (e.touches[0]?.clientY ?? null) : null;
      distance = 0;
    };
    const onMove = (e: TouchEvent) => {
      if (start.current === null) return;
      distance = Math.max(0, (e.touches[0]?.clientY ?? 0) - start.current);
      setPull(Math.min(distance, THRESHOLD * 1.5));
    };
    const onEnd = () => {
      if (start.current !== null && distance >= THRESHOLD) latest.current();
      start.current = null;
      distance = 0;
      setPull(0);
    };
    window.addEventListener('touchstart', onStart, { passive: true });
    window.addEventListener('touchmove', onMove, { passive: true });
    window.addEventListener('touchend', onEnd);
    return () => {
      window.removeEventListener('touchstart', onStart);
      window.removeEventListener('touchmove', onMove);
      window.removeEventListener('touchend', onEnd);
    };
  }, []);

  return { pull, ready: pull >= THRESHOLD };
}
