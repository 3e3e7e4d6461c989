/** Delays for trying again: doubling from `initialMs` to `maxMs`, each drawn between half and all of it. */
export interface Backoff {
  next(): number;
  reset(): void;
}

export function createBackoff({ initialMs, maxMs }: { initialMs: number; maxMs: number }): Backoff {
  let attempt = 0;
  return {
    next() {
      const ceiling = Math.min(maxMs, initialMs * 2 ** attempt);
      attempt = Math.min(attempt + 1, 30);
      // Jitter: many helpers that lost the server at once do not all come back in the same second.
      return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    },
    reset() {
      attempt = 0;
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
