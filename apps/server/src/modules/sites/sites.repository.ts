import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { sites, users } from '../../platform/db/schema.js';
import { unassignSiteCameras } from '../cameras/cameras.module.js';

export type SiteRow = typeof sites.$inferSelect;

/** Properties' SQL. Every query is scoped by the caller's user id. */
export function createSitesRepository(db: Db) {
  const findOwnerId = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .limit(1)
    .prepare('sites_find_owner');

  const active = (userId: string, siteId: string) =>
    and(eq(sites.userId, userId), eq(sites.id, siteId), isNull(sites.removedAt));

  return {
    async findOwnerId(subject: string): Promise<string | undefined> {
      const [row] = await findOwnerId.execute({ subject });
      return row?.id;
    },

    listActive: (userId: string): Promise<SiteRow[]> =>
      db
        .select()
        .from(sites)
        .where(and(eq(sites.userId, userId), isNull(sites.removedAt)))
        .orderBy(asc(sql`lower(${sites.name})`), asc(sites.name)),

    async findActive(userId: string, siteId: string): Promise<SiteRow | undefined> {
      const [row] = await db.select().from(sites).where(active(userId, siteId)).limit(1);
      return row;
    },

    async insert(userId: string, name: string): Promise<SiteRow> {
      const [row] = await db.insert(sites).values({ userId, name }).returning();
      if (!row) throw new Error('site insert returned nothing');
      return row;
    },

    async rename(userId: string, siteId: string, name: string): Promise<SiteRow | undefined> {
      const [row] = await db
        .update(sites)
        .set({ name, updatedAt: new Date() })
        .where(active(userId, siteId))
        .returning();
      return row;
    },

    /** Soft-removes the site and leaves its cameras without a property, in one transaction. */
    async remove(userId: string, siteId: string, at: Date): Promise<SiteRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(sites)
          .set({ removedAt: at, updatedAt: at })
          .where(active(userId, siteId))
          .returning();
        if (!row) return undefined;
        await unassignSiteCameras(tx, userId, siteId, at);
        return row;
      });
    },
  };
}
export type SitesRepository = ReturnType<typeof createSitesRepository>;
