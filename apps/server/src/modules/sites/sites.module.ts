import type { AppModule, ModuleContext } from '../../platform/module.js';
import { createSitesRepository } from './sites.repository.js';
import { registerSiteRoutes } from './sites.routes.js';
import { createSitesService, type MemorySiteLinks } from './sites.service.js';

/** The user's properties and which cameras and memories belong to each. */
export function createSitesModule(context: ModuleContext, needs: { memories: MemorySiteLinks }) {
  const sites = createSitesService({
    repo: createSitesRepository(context.database.db),
    memories: needs.memories,
    events: context.events,
  });
  return {
    api: undefined,
    routes: (app, { guards }) => registerSiteRoutes(app, { sites, guards }),
  } satisfies AppModule<undefined>;
}
