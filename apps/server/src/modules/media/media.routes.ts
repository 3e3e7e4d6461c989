import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { AppError } from '../../platform/errors.js';
import { isPlaylistKey, MAX_PLAYLIST_BYTES, signPlaylist } from './hls-playlist.js';
import { MEDIA_PATH, type MediaSigner } from './media.signer.js';

const mediaErrors = {
  forbidden: (reason: string) => new AppError(403, 'media.forbidden', reason),
  notFound: () => new AppError(404, 'media.not_found', 'This file no longer exists'),
};

/**
 * Signed media may be shown by other origins: the phone apps' bundled web app (`capacitor://localhost`,
 * `https://localhost`) puts these URLs in <img> and <video> tags, which `same-site` would block. The
 * signature, not the embedding page, is what guards a file.
 */
const MEDIA_RESOURCE_POLICY = 'cross-origin';

/**
 * `GET /media/<key>?exp=&sig=`: serves a stored file to whoever holds a valid signed URL (images in <img>
 * tags carry no bearer token). Keys are immutable, so a valid URL may be cached until it expires. An HLS
 * playlist (`.m3u8`) is the exception: it is served with its segments' signed URLs written in, made fresh
 * on each request, so it is not cached.
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  deps: {
    storage: ObjectStorage;
    signer: MediaSigner;
    /** How long the segment URLs written into a playlist live (`MEDIA_URL_TTL`). */
    urlTtlSeconds?: number;
    now?: () => number;
  },
): void {
  const now = deps.now ?? Date.now;
  const segmentTtl = deps.urlTtlSeconds ?? 3600;

  async function servePlaylist(key: string, reply: FastifyReply) {
    const object = await deps.storage.get(key).catch(() => undefined);
    if (!object) throw mediaErrors.notFound();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of object.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_PLAYLIST_BYTES)
        throw new Error(`playlist ${key} is larger than ${MAX_PLAYLIST_BYTES} bytes`);
      chunks.push(chunk);
    }
    const text = await signPlaylist(Buffer.concat(chunks).toString('utf8'), key, (segment) =>
      deps.storage.signedUrl(segment, segmentTtl),
    );
    return reply
      .header('cache-control', 'private, no-cache')
      .header('cross-origin-resource-policy', MEDIA_RESOURCE_POLICY)
      .header('content-type', 'application/vnd.apple.mpegurl')
      .send(text);
  }

  app.get(
    `${MEDIA_PATH}/*`,
    {
      schema: {
        hide: true,
        params: z.object({ '*': z.string() }),
        querystring: z.object({ exp: z.string().optional(), sig: z.string().optional() }),
      },
    },
    async (req, reply) => {
      const { '*': key } = req.params as { '*': string };
      const { exp, sig } = req.query as { exp?: string; sig?: string };
      const verdict = deps.signer.check(key, exp, sig, now());
      if (verdict === 'invalid') throw mediaErrors.forbidden('This link is not valid');
      if (verdict === 'expired') throw mediaErrors.forbidden('This link has expired');
      if (isPlaylistKey(key)) return servePlaylist(key, reply);

      const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 22)}"`;
      const maxAge = Math.max(0, Number(exp) - Math.floor(now() / 1000));
      void reply
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('etag', etag)
        .header('cross-origin-resource-policy', MEDIA_RESOURCE_POLICY);
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();

      const object = await deps.storage.get(key).catch(() => undefined);
      if (!object) throw mediaErrors.notFound();
      return reply
        .header('content-type', object.contentType)
        .header('content-length', String(object.size))
        .send(object.body);
    },
  );
}
