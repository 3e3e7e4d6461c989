/**
 * "Does our provider still have this identity?" on every request with one of our tokens, answered from memory
 * for a short while: a deleted account's tokens are refused at once on the instance that deleted it (which
 * `forget`s it) and within `ttlMs` on the others, for one query per identity and period.
 */
export function createIdentityPresence(deps: {
  exists: (identityId: string) => Promise<boolean>;
  ttlMs: number;
  now?: () => number;
  maxEntries?: number;
}) {
  const now = deps.now ?? Date.now;
  const maxEntries = deps.maxEntries ?? 50_000;
  const known = new Map<string, number>();
  return {
    async exists(identityId: string): Promise<boolean> {
      const until = known.get(identityId);
      if (until !== undefined && until > now()) return true;
      const present = await deps.exists(identityId);
      if (known.size >= maxEntries) known.clear();
      if (present) known.set(identityId, now() + deps.ttlMs);
      else known.delete(identityId);
      return present;
    },
    forget(identityId: string): void {
      known.delete(identityId);
    },
  };
}
