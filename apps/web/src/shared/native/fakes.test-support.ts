import { vi } from 'vitest';
import type { ListenerHandle } from './types';

/** A plugin's `addListener` that keeps the listeners, so a test can fire the plugin's events. */
export function fakeListeners() {
  const listeners = new Map<string, ((payload: never) => void)[]>();
  const removed: string[] = [];
  const addListener = vi.fn(async (event: string, fn: (payload: never) => void): Promise<ListenerHandle> => {
    listeners.set(event, [...(listeners.get(event) ?? []), fn]);
    return {
      remove: async () => {
        removed.push(event);
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((l) => l !== fn),
        );
      },
    };
  });
  function fire(event: string, payload: unknown) {
    for (const fn of listeners.get(event) ?? []) fn(payload as never);
  }
  return { addListener, fire, listeners, removed };
}

export function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}
