import { readFile } from 'node:fs/promises';
import { endpoints, NEST_CALLBACK_PATH, NEST_GUIDE_PATH, NEST_OUTCOME_PARAM } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { commonErrors } from '../../platform/errors.js';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { UsersApi } from '../users/users.module.js';
import type { NestService } from './nest.service.js';

export interface NestRoutesDeps {
  service: NestService;
  users: Pick<UsersApi, 'requireIdBySubject'>;
  guards: AccessGuards;
  publicUrl: string;
  guideFile: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.length <= 4096 ? v : undefined);

export function registerNestRoutes(app: FastifyInstance, deps: NestRoutesDeps): void {
  const { service, users, guards } = deps;
  const userOf = async (req: { auth: Parameters<typeof callerOf>[0]['auth'] }) =>
    users.requireIdBySubject(callerOf(req).subject);

  route(app, guards, endpoints.getNestLink, async (req) => ({
    success: true as const,
    data: await service.status(await userOf(req)),
  }));

  route(app, guards, endpoints.linkNest, async (req) => ({
    success: true as const,
    data: { url: await service.startLink(await userOf(req)) },
  }));

  route(app, guards, endpoints.unlinkNest, async (req) => {
    await service.unlink(await userOf(req));
    return { success: true as const };
  });

  // Google's redirect after consent: a browser navigation, answered with the cameras page and the outcome.
  app.get(NEST_CALLBACK_PATH, { schema: { hide: true } }, async (req, reply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const outcome = await service.callback({
      code: text(query.code),
      state: text(query.state),
      error: text(query.error),
    });
    return reply
      .header('cache-control', 'no-store')
      .redirect(`${deps.publicUrl}/cameras?${NEST_OUTCOME_PARAM}=${outcome}`, 303);
  });

  app.get(NEST_GUIDE_PATH, { schema: { hide: true } }, async (_req, reply) => {
    // A deployment may ship without the repository's docs folder: then the guide is honestly missing.
    const guide = await readFile(deps.guideFile, 'utf8').catch(() => null);
    if (guide === null) throw commonErrors.notFound('The Nest operator guide (docs/nest.md)');
    return reply.type('text/plain; charset=utf-8').send(guide);
  });
}
