import { createHash } from 'node:crypto';

export interface VerifiedLoginsOptions {
  /** How long a login checked once stays good without another scrypt. */
  ttlMs: number;
  /** Most logins remembered; the oldest is forgotten first. */
  max: number;
  now?: () => number;
}

/**
 * Cameras log in for every upload (FTP and SMTP), often several behind one router at once, and each check
 * is a deliberately slow scrypt. A login that was right is remembered for a while, so a burst of uploads
 * costs one scrypt instead of one each; checks of the same login that arrive while one runs wait for it.
 * The key is a SHA-256 of the login together with the stored hash: a new password (a new hash) is never
 * matched by the old entry, and nothing readable is kept in memory. Wrong logins are never remembered.
 */
export function createVerifiedLogins(options: VerifiedLoginsOptions) {
  const now = options.now ?? Date.now;
  const good = new Map<string, number>();
  const running = new Map<string, Promise<boolean>>();

  const keyOf = (username: string, password: string, storedHash: string) =>
    createHash('sha256')
      .update(username)
      .update('\0')
      .update(password)
      .update('\0')
      .update(storedHash)
      .digest('base64url');

  function remember(key: string): void {
    good.delete(key);
    good.set(key, now() + options.ttlMs);
    while (good.size > options.max) good.delete(good.keys().next().value as string);
  }

  return {
    /** Whether the login is right: `verify` (the scrypt) runs only when it is not remembered. */
    async check(
      username: string,
      password: string,
      storedHash: string,
      verify: () => Promise<boolean>,
    ): Promise<boolean> {
      const key = keyOf(username, password, storedHash);
      const until = good.get(key);
      if (until !== undefined) {
        if (until > now()) return true;
        good.delete(key);
      }
      const pending = running.get(key);
      if (pending) return pending;
      const checking = verify()
        .then((ok) => {
          if (ok) remember(key);
          return ok;
        })
        .finally(() => running.delete(key));
      running.set(key, checking);
      return checking;
    },
  };
}
export type VerifiedLogins = ReturnType<typeof createVerifiedLogins>;
