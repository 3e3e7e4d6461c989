/**
 * A small typed event emitter: `on` answers its own unsubscribe, and a throwing listener cannot stop the
 * others (the stream keeps flowing when one consumer fails).
 */

// Listener argument lists are declared per event by the user; `any[]` is only the constraint's upper bound.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EventMap<E> = { [K in keyof E]: (...args: any[]) => void };

export interface Emitter<E extends EventMap<E>> {
  on<K extends keyof E>(event: K, listener: E[K]): () => void;
  emit<K extends keyof E>(event: K, ...args: Parameters<E[K]>): void;
}

export function createEmitter<E extends EventMap<E>>(onListenerError?: (err: unknown) => void): Emitter<E> {
  const listeners = new Map<keyof E, Set<E[keyof E]>>();
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(event, ...args) {
      const set = listeners.get(event);
      if (!set) return;
      for (const listener of [...set]) {
        try {
          listener(...args);
        } catch (err) {
          onListenerError?.(err);
        }
      }
    },
  };
}
