import { assertValidKey } from '../../adapters/storage/storage.js';

/** Playlists are a few lines per segment; anything larger is not one of ours. */
export const MAX_PLAYLIST_BYTES = 256 * 1024;

export const isPlaylistKey = (key: string): boolean => key.endsWith('.m3u8');

/**
 * An HLS playlist names its segments relative to itself, but every media file is reachable only by its own
 * signed URL (filesystem HMAC or S3 presign). So the playlist is served through the media route, which
 * rewrites each relative URI (segment lines and `URI="…"` attributes such as `#EXT-X-MAP`) into the signed
 * URL of the file beside it. A URI that leaves the playlist's folder is refused.
 */
export async function signPlaylist(
  text: string,
  playlistKey: string,
  sign: (key: string) => Promise<string>,
): Promise<string> {
  const folder = playlistKey.slice(0, playlistKey.lastIndexOf('/') + 1);
  const resolve = (uri: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/')) {
      throw new Error(`playlist ${playlistKey} names a file outside its folder: ${uri}`);
    }
    const key = folder + uri;
    assertValidKey(key);
    return sign(key);
  };
  const lines = await Promise.all(
    text.split(/\r?\n/).map(async (line) => {
      const trimmed = line.trim();
      if (!trimmed) return line;
      if (!trimmed.startsWith('#')) return resolve(trimmed);
      const attr = /URI="([^"]+)"/.exec(trimmed);
      if (!attr?.[1]) return line;
      return trimmed.replace(attr[0], `URI="${await resolve(attr[1])}"`);
    }),
  );
  return lines.join('\n');
}
