/**
 * A fixed-window counter per key, in memory. Good for one instance; at scale the per-IP limit of
 * @fastify/rate-limit moves to Redis and this per-account limit remains a per-instance brake.
 */
export function createRateLimiter(options: { max: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();

  function sweep(t: number) {
    if (windows.size < 10_000) return;
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }

  return {
    /** Counts one attempt; returns the seconds to wait when the key is over its limit, else 0. */
    hit(key: string): number {
      const t = now();
      sweep(t);
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + options.windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count > options.max ? Math.ceil((w.resetAt - t) / 1000) : 0;
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
