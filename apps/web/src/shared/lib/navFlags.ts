import { useSyncExternalStore } from 'react';

/** Set by the cameras area when a camera has something new: the cameras entry pulses (docs/product.md §2). */
let camerasHighlighted = false;
const listeners = new Set<() => void>();

export function setCamerasHighlight(on: boolean) {
  camerasHighlighted = on;
  listeners.forEach((l) => l());
}

export function useCamerasHighlight(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => camerasHighlighted,
  );
}
