import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** API-ish prefixes that never fall back to the web app's index.html. */
const NON_APP_PREFIXES = ['/api/', '/api?', '/.well-known/', '/healthz', '/readyz'];

export function isAppRoute(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url;
  if (url === '/api' || NON_APP_PREFIXES.some((p) => url.startsWith(p))) return false;
  return true;
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and every other GET
 * that is not an API path answered with index.html (history fallback for client-side routes).
 * Returns the fallback to use in the not-found handler, or undefined when no build exists.
 */
export async function serveWebApp(
  app: FastifyInstance,
  distDir: string,
): Promise<((req: FastifyRequest, reply: FastifyReply) => FastifyReply) | undefined> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'web app not built; only the API is served');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: true,
    index: false,
    setHeaders(res, path) {
      void res.header(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  return (_req, reply) => reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
}
