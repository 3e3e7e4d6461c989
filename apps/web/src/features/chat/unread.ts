import { useSyncExternalStore } from 'react';

/** Messages from the home sitter that came while the chat was not on screen: the count on the Chat entry. */
let unread = 0;
const listeners = new Set<() => void>();

function set(value: number) {
  if (value === unread) return;
  unread = value;
  listeners.forEach((l) => l());
}

export const addUnreadChat = () => set(unread + 1);
export const clearUnreadChat = () => set(0);

export function useUnreadChat(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => unread,
  );
}
