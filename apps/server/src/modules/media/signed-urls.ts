import { signingWindowSeconds } from '../../adapters/storage/storage.js';

/**
 * Signed media URLs, each made once per signing window. Signed URLs are stable for a window (see
 * storage.ts), so lists of a thousand photos or activities skip a thousand HMACs (or S3 presigns) on every
 * call, and browsers may cache what they fetched.
 */
export function createSignedUrlCache(deps: {
  /** Makes a URL valid for at least `urlTtlSeconds` (the store's `signedUrl`, or the media route's). */
  sign: (key: string, ttlSeconds: number) => Promise<string> | string;
  urlTtlSeconds: number;
  now: () => Date;
  /** Entries kept before the cache starts over (bounds memory). */
  maxEntries?: number;
}) {
  const windowMs = signingWindowSeconds(deps.urlTtlSeconds) * 1000;
  const maxEntries = deps.maxEntries ?? 50_000;
  const cache = new Map<string, { url: string; until: number }>();

  async function url(key: string): Promise<string> {
    const at = deps.now().getTime();
    const hit = cache.get(key);
    if (hit && hit.until > at) return hit.url;
    if (cache.size > maxEntries) cache.clear();
    const signed = await deps.sign(key, deps.urlTtlSeconds);
    cache.set(key, { url: signed, until: at + windowMs });
    return signed;
  }

  return { url, windowMs };
}
export type SignedUrlCache = ReturnType<typeof createSignedUrlCache>;
