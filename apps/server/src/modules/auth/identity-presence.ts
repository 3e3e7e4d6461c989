import type { AuthContext } from '../../platform/http/route.js';

/**
 * "Is the account behind this token still there?" on every request, answered from memory for a short while:
 * for our own tokens, whether our provider still has the identity; for an external issuer's, whether the
 * account was deleted after the token's sign-in (a later sign-in is the user coming back). A deleted
 * account's identity is `forget`-ten on every instance (auth.module.ts), so its tokens are refused at once;
 * `ttlMs` only bounds how stale an answer may get when that word is lost (Redis down).
 */
export function createIdentityPresence(deps: {
  /** Whether our own provider has the identity. */
  exists: (identityId: string) => Promise<boolean>;
  /** When the account of an external identity was deleted; undefined if never. */
  deletedAt: (subject: string) => Promise<Date | undefined>;
  ttlMs: number;
  now?: () => number;
  maxEntries?: number;
}) {
  const now = deps.now ?? Date.now;
  const maxEntries = deps.maxEntries ?? 50_000;
  /** Local identities known to exist, until when. */
  const known = new Map<string, number>();
  /** External identities' deletion time (undefined: never deleted), until when it is believed. */
  const deletions = new Map<string, { until: number; at: number | undefined }>();

  async function localExists(identityId: string): Promise<boolean> {
    const until = known.get(identityId);
    if (until !== undefined && until > now()) return true;
    const present = await deps.exists(identityId);
    if (known.size >= maxEntries) known.clear();
    if (present) known.set(identityId, now() + deps.ttlMs);
    else known.delete(identityId);
    return present;
  }

  async function externalDeletedAt(subject: string): Promise<number | undefined> {
    const hit = deletions.get(subject);
    if (hit && hit.until > now()) return hit.at;
    const at = (await deps.deletedAt(subject))?.getTime();
    if (deletions.size >= maxEntries) deletions.clear();
    deletions.set(subject, { until: now() + deps.ttlMs, at });
    return at;
  }

  return {
    async isCurrent(auth: Pick<AuthContext, 'issuer' | 'subject' | 'signedInAt'>): Promise<boolean> {
      if (auth.issuer === 'local') return localExists(auth.subject);
      const deletedAt = await externalDeletedAt(auth.subject);
      if (deletedAt === undefined) return true;
      // Signed in before the deletion (a refreshed token keeps its sign-in time): refused.
      return auth.signedInAt !== undefined && auth.signedInAt * 1000 > deletedAt;
    },
    /** Drops what is remembered of an identity (its account was just deleted, here or on another instance). */
    forget(subject: string): void {
      known.delete(subject);
      deletions.delete(subject);
    },
  };
}
export type IdentityPresence = ReturnType<typeof createIdentityPresence>;
