import type { FastifyInstance } from 'fastify';

/** One external tool's state at start, as `/readyz` reports it. */
export interface ToolStatus {
  path: string;
  version?: string | null | undefined;
  error?: string | null | undefined;
}

/**
 * `/healthz`: the process answers. `/readyz`: the database answers (else 503); `status` says `degraded`
 * when a media tool cannot run: the server still takes every upload (clips are kept as sent), but says
 * what it lacks.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { ping: () => Promise<boolean>; mediaTools: () => Promise<Record<string, ToolStatus>> },
): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const [ready, tools] = await Promise.all([deps.ping(), deps.mediaTools()]);
    if (!ready)
      return reply.status(503).send({ success: false, code: 'internal', message: 'Database unreachable' });
    const missing = Object.values(tools).filter((t) => t.error);
    return {
      success: true,
      data: {
        status: missing.length ? 'degraded' : 'ready',
        media_tools: Object.fromEntries(
          Object.entries(tools).map(([name, t]) => [
            name,
            { path: t.path, version: t.version, error: t.error },
          ]),
        ),
      },
    };
  });
}
