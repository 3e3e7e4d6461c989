/** A small typed event emitter: `on` answers the function that removes the listener. */
export interface Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  on: <K extends keyof Events>(event: K, listener: Events[K]) => () => void;
  emit: <K extends keyof Events>(event: K, ...args: Parameters<Events[K]>) => void;
}

export function createEmitter<Events extends { [K in keyof Events]: (...args: never[]) => void }>(
  onListenerError: (err: unknown) => void,
): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<Events[keyof Events]>>();
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(event, ...args) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as (...a: Parameters<Events[typeof event]>) => void)(...args);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
  };
}
