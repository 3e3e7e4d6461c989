import { useSyncExternalStore } from 'react';

/**
 * Whether the small layouts' slide-in menu is open. A store rather than layout state because screens that hide
 * the bottom bar (the chat) open it from their own header: otherwise a phone has no way out of them.
 */
let open = false;
const listeners = new Set<() => void>();

export function setSidePanelOpen(value: boolean) {
  open = value;
  listeners.forEach((l) => l());
}

export function useSidePanelOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
