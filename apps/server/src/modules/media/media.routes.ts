import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { AppError } from '../../platform/errors.js';
import { MEDIA_PATH, type MediaSigner } from './media.signer.js';

const mediaErrors = {
  forbidden: (reason: string) => new AppError(403, 'media.forbidden', reason),
  notFound: () => new AppError(404, 'media.not_found', 'This file no longer exists'),
};

/**
 * `GET /media/<key>?exp=&sig=`: serves a stored file to whoever holds a valid signed URL (images in <img>
 * tags carry no bearer token). Keys are immutable, so a valid URL may be cached until it expires.
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  deps: { storage: ObjectStorage; signer: MediaSigner; now?: () => number },
): void {
  const now = deps.now ?? Date.now;
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

      const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 22)}"`;
      const maxAge = Math.max(0, Number(exp) - Math.floor(now() / 1000));
      void reply
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('etag', etag)
        .header('cross-origin-resource-policy', 'same-site');
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
