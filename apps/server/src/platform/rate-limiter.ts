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
    /** The seconds to wait when the key is at its limit (the next hit would be refused), else 0; counts nothing. */
    waitFor(key: string): number {
      const t = now();
      const w = windows.get(key);
      return w && w.resetAt > t && w.count >= options.max ? Math.ceil((w.resetAt - t) / 1000) : 0;
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Failed logins a minute one credential may have from one address, and one address with all credentials. */
export const LOGIN_FAILURES = { perCredential: 10, perAddress: 100, windowMs: 60_000 };

/**
 * A brake on guessing logins that counts failures only: several cameras behind one home router signing in
 * at once with their right login are never refused, however many there are. A credential that failed
 * `perCredential` times from an address in the window is refused there until the window ends; an address
 * with `perAddress` failures over all credentials (someone trying many names) is refused altogether.
 */
export function createLoginFailures(
  options: typeof LOGIN_FAILURES & { now?: () => number } = LOGIN_FAILURES,
) {
  const byCredential = createRateLimiter({
    max: options.perCredential,
    windowMs: options.windowMs,
    now: options.now,
  });
  const byAddress = createRateLimiter({
    max: options.perAddress,
    windowMs: options.windowMs,
    now: options.now,
  });
  const credentialKey = (address: string, username: string) => `${address}\n${username}`;
  return {
    /** Seconds until this login may be tried from this address; 0: try it now. */
    retryAfter(address: string, username: string): number {
      return Math.max(byAddress.waitFor(address), byCredential.waitFor(credentialKey(address, username)));
    },
    failed(address: string, username: string): void {
      byAddress.hit(address);
      byCredential.hit(credentialKey(address, username));
    },
    succeeded(address: string, username: string): void {
      byCredential.reset(credentialKey(address, username));
    },
  };
}
