import type { FastifyInstance, FastifyRequest } from 'fastify';

/** One external tool's state at start, as `/readyz` reports it. */
export interface ToolStatus {
  path: string;
  version?: string | null | undefined;
  error?: string | null | undefined;
}

/**
 * `/healthz`: the process answers. `/readyz`: the database answers (else 503); `status` says `degraded`
 * when a media tool cannot run: the server still takes every upload (clips are kept as sent). Which tool,
 * where it is installed and its version are shown to the operator only (`Authorization: Bearer
 * <ADMIN_TOKEN>`, as `npm run admin` sends it): install paths and versions tell a stranger what to attack.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: {
    ping: () => Promise<boolean>;
    mediaTools: () => Promise<Record<string, ToolStatus>>;
    /** Whether the request carries the operator's token; never throws. */
    isOperator: (req: FastifyRequest) => Promise<boolean>;
  },
): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    const [ready, tools] = await Promise.all([deps.ping(), deps.mediaTools()]);
    if (!ready) return reply.status(503).send({ success: false, code: 'internal', message: 'Not ready' });
    const status = Object.values(tools).some((t) => t.error) ? 'degraded' : 'ready';
    if (!(await deps.isOperator(req))) return { success: true, data: { status } };
    return {
      success: true,
      data: {
        status,
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
