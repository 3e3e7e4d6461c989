import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { SitesService } from './sites.service.js';

const ok = <T>(data: T) => ({ success: true as const, data });

/** docs/product.md §7 "Sites": thin handlers, rules in SitesService. */
export function registerSiteRoutes(
  app: FastifyInstance,
  deps: { sites: SitesService; guards: AccessGuards },
): void {
  const { sites, guards } = deps;

  route(app, guards, endpoints.listSites, async (req) => ok(await sites.list(callerOf(req).subject)));

  route(app, guards, endpoints.createSite, async (req) =>
    ok(await sites.create(callerOf(req).subject, req.body.name)),
  );

  route(app, guards, endpoints.renameSite, async (req) =>
    ok(await sites.rename(callerOf(req).subject, req.params.siteUuid, req.body.name)),
  );

  route(app, guards, endpoints.deleteSite, async (req) =>
    ok(await sites.remove(callerOf(req).subject, req.params.siteUuid)),
  );

  route(app, guards, endpoints.associateAllMemories, async (req) =>
    ok(await sites.associateAllMemories(callerOf(req).subject, req.params.siteUuid)),
  );
}
