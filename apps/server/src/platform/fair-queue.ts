/**
 * A limiter for heavy work (a photo's decode and re-encode) that is fair between users: at most `perKey`
 * jobs of one key (a user) run at once and at most `total` of all keys; what waits is queued per key in
 * arrival order, and a freed place goes to the waiting key served longest ago (a key never served first),
 * so one user's ten photos do not make everyone else's single photo wait behind all ten.
 */
export interface FairQueue {
  /** Waits for a place for `key`; the answer gives it back (call it exactly once; more calls do nothing). */
  acquire(key: string): Promise<() => void>;
  /** Jobs running and waiting, for logs and tests. */
  stats(): { running: number; waiting: number };
}

interface Waiter {
  grant: (release: () => void) => void;
}

export function createFairQueue(limits: { perKey: number; total: number }): FairQueue {
  const perKey = Math.max(1, limits.perKey);
  const total = Math.max(1, limits.total);
  let running = 0;
  const runningByKey = new Map<string, number>();
  /** Waiting jobs per key, the keys in the order they began to wait. */
  const waiting = new Map<string, Waiter[]>();
  /** When each key last got a place (a counter, not a clock); forgotten once the key has nothing left. */
  const lastServed = new Map<string, number>();
  let tick = 0;

  function start(key: string): () => void {
    running += 1;
    lastServed.set(key, ++tick);
    runningByKey.set(key, (runningByKey.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running -= 1;
      const left = (runningByKey.get(key) ?? 1) - 1;
      if (left > 0) runningByKey.set(key, left);
      else {
        runningByKey.delete(key);
        if (!waiting.has(key)) lastServed.delete(key);
      }
      dispatch();
    };
  }

  /** Gives free places to waiting jobs: the oldest job of the key served longest ago, skipping keys at their limit. */
  function dispatch(): void {
    while (running < total) {
      let pick: string | undefined;
      let pickServed = Infinity;
      for (const key of waiting.keys()) {
        if ((runningByKey.get(key) ?? 0) >= perKey) continue;
        const served = lastServed.get(key) ?? 0;
        if (served < pickServed) {
          pick = key;
          pickServed = served;
        }
      }
      if (pick === undefined) return;
      const queue = waiting.get(pick)!;
      const next = queue.shift()!;
      if (queue.length === 0) waiting.delete(pick);
      next.grant(start(pick));
    }
  }

  return {
    acquire(key) {
      if (running < total && (runningByKey.get(key) ?? 0) < perKey && !waiting.has(key))
        return Promise.resolve(start(key));
      return new Promise((resolve) => {
        const queue = waiting.get(key);
        if (queue) queue.push({ grant: resolve });
        else waiting.set(key, [{ grant: resolve }]);
        dispatch();
      });
    },
    stats() {
      let n = 0;
      for (const queue of waiting.values()) n += queue.length;
      return { running, waiting: n };
    },
  };
}
