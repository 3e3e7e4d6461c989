import type { Site } from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
import { userErrors } from '../users/users.module.js';
import { siteErrors } from './sites.errors.js';
import type { SiteRow, SitesRepository } from './sites.repository.js';

/**
 * What the sites module needs from memories: link every memory of the user to a property, answering how
 * many links were new. The composition root provides it from the memories module.
 */
export interface MemorySiteLinks {
  associateAllMemories(userId: string, siteId: string): Promise<number>;
}

export interface SitesServiceDeps {
  repo: SitesRepository;
  memories: MemorySiteLinks;
  events: EventBus;
  now?: () => Date;
}

export function toSite(row: SiteRow): Site {
  return {
    site_uuid: row.id,
    name: row.name,
    removed_at: row.removedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Properties' rules: listed by name, soft removal that unassigns cameras, bulk memory association. */
export function createSitesService(deps: SitesServiceDeps) {
  const { repo, events } = deps;
  const now = deps.now ?? (() => new Date());

  async function ownerId(subject: string): Promise<string> {
    const id = await repo.findOwnerId(subject);
    if (!id) throw userErrors.notFound();
    return id;
  }

  async function changed(userId: string, row: SiteRow | undefined): Promise<Site> {
    if (!row) throw siteErrors.notFound();
    await events.emit('cameras.changed', { userId });
    return toSite(row);
  }

  return {
    async list(subject: string): Promise<Site[]> {
      return (await repo.listActive(await ownerId(subject))).map(toSite);
    },

    async create(subject: string, name: string): Promise<Site> {
      const userId = await ownerId(subject);
      return changed(userId, await repo.insert(userId, name));
    },

    async rename(subject: string, siteId: string, name: string): Promise<Site> {
      const userId = await ownerId(subject);
      return changed(userId, await repo.rename(userId, siteId, name));
    },

    /** docs/product.md §4: deleting a property unassigns its cameras. */
    async remove(subject: string, siteId: string): Promise<Site> {
      const userId = await ownerId(subject);
      return changed(userId, await repo.remove(userId, siteId, now()));
    },

    async associateAllMemories(subject: string, siteId: string) {
      const userId = await ownerId(subject);
      if (!(await repo.findActive(userId, siteId))) throw siteErrors.notFound();
      const associated = await deps.memories.associateAllMemories(userId, siteId);
      return { site_uuid: siteId, associated };
    },
  };
}
export type SitesService = ReturnType<typeof createSitesService>;
