import type { ChatMessage } from '@homesitter/contract';

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

/**
 * The home sitter's images keep the URL they were sent with, and signed URLs expire (`MEDIA_URL_TTL`), while
 * history is read for weeks: history hands out freshly signed URLs for images stored under the user's own
 * media folder (`users/<userId>/…`, on this server's `/media` route or an S3 bucket's path). Any other image,
 * and the user's own messages, are left as they are.
 */
export function createImageResigner(sign: (key: string) => Promise<string>) {
  const keyOf = (userId: string, url: string): string | undefined => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(url, 'http://local').pathname);
    } catch {
      return undefined;
    }
    const at = path.indexOf(`/users/${userId}/`);
    const key = at < 0 ? undefined : path.slice(at + 1);
    return key && !key.split('/').includes('..') ? key : undefined;
  };
  return async (userId: string, messages: ChatMessage[]): Promise<ChatMessage[]> => {
    const stale = (m: ChatMessage) => m.role === 'agent' && m.image_urls.some((u) => keyOf(userId, u));
    if (!messages.some(stale)) return messages;
    return Promise.all(
      messages.map(async (m) =>
        stale(m)
          ? {
              ...m,
              image_urls: await Promise.all(
                m.image_urls.map(async (u) => {
                  const key = keyOf(userId, u);
                  return key ? sign(key) : u;
                }),
              ),
            }
          : m,
      ),
    );
  };
}
