/**
 * Whether `url` is a signed media URL of this user's own: the only images a chat message may carry.
 *
 * Media URLs are `PUBLIC_URL/media/<key>?exp=…&sig=…` with keys under `users/<userId>/`. This check needs the
 * URL on this server's origin (or relative), under `/media/users/<the caller's id>/`, and, when the media
 * module's signature check is passed in as `verify`, a genuine signature (an expired one is fine: the chat
 * keeps the reference, and the app re-signs it when it shows it).
 */
export type MediaUrlCheck = (userId: string, url: string) => boolean;

export type MediaSignatureCheck = (
  key: string,
  exp: string | undefined,
  sig: string | undefined,
) => 'valid' | 'expired' | 'invalid';

export function createOwnMediaCheck(publicUrl: string, verify?: MediaSignatureCheck): MediaUrlCheck {
  const origin = new URL(publicUrl).origin;
  return (userId, url) => {
    let parsed: URL;
    try {
      parsed = new URL(url, origin);
    } catch {
      return false;
    }
    if (parsed.origin !== origin) return false;
    let key: string;
    try {
      key = decodeURIComponent(parsed.pathname.replace(/^\/media\//, ''));
    } catch {
      return false;
    }
    if (!parsed.pathname.startsWith('/media/') || key.split('/').includes('..')) return false;
    if (!key.startsWith(`users/${userId}/`)) return false;
    if (!verify) return true;
    const exp = parsed.searchParams.get('exp') ?? undefined;
    const sig = parsed.searchParams.get('sig') ?? undefined;
    return verify(key, exp, sig) !== 'invalid';
  };
}
