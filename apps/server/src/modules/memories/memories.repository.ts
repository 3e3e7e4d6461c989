import type { MemoryCategory } from '@homesitter/contract';
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { memories, memoryImages, memorySites, sites, users } from '../../platform/db/schema.js';

export type MemoryRow = typeof memories.$inferSelect;
export type MemoryImageRow = typeof memoryImages.$inferSelect;
export type MemoryValues = Partial<
  Pick<
    typeof memories.$inferInsert,
    'name' | 'owner' | 'make' | 'model' | 'year' | 'color' | 'species' | 'text' | 'notes' | 'expiresAt'
  >
>;
/** The id is the service's: the photo's files are named after it before the row exists. */
export type NewImage = Omit<typeof memoryImages.$inferInsert, 'userId' | 'memoryId' | 'createdAt'> & {
  id: string;
};

/** A memory with its photos and properties, as the service renders it. */
export interface MemoryRecord {
  row: MemoryRow;
  images: MemoryImageRow[];
  siteIds: string[];
}

const live = (now: Date) => or(isNull(memories.expiresAt), gt(memories.expiresAt, now));

/** Memories' SQL. Every query is scoped by the caller's user id; another user's memory is simply absent. */
export function createMemoriesRepository(db: Db) {
  // Every memories call starts here (the list too, whose answer shows the time zone and the amnesia
  // switch): prepared once, and only the three columns memories need.
  const findOwner = db
    .select({
      id: users.id,
      timezone: users.timezone,
      isAmnesiaModeEnabled: users.isAmnesiaModeEnabled,
    })
    .from(users)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .limit(1)
    .prepare('memories_find_owner');

  async function imagesOf(userId: string, memoryIds: string[]): Promise<MemoryImageRow[]> {
    if (memoryIds.length === 0) return [];
    return db
      .select()
      .from(memoryImages)
      .where(and(eq(memoryImages.userId, userId), inArray(memoryImages.memoryId, memoryIds)))
      .orderBy(asc(memoryImages.createdAt), asc(memoryImages.id));
  }

  async function sitesOf(userId: string, memoryIds: string[]) {
    if (memoryIds.length === 0) return [];
    return db
      .select({ memoryId: memorySites.memoryId, siteId: memorySites.siteId })
      .from(memorySites)
      .where(and(eq(memorySites.userId, userId), inArray(memorySites.memoryId, memoryIds)));
  }

  async function setSites(tx: Db, userId: string, memoryId: string, siteIds: string[]) {
    await tx
      .delete(memorySites)
      .where(and(eq(memorySites.userId, userId), eq(memorySites.memoryId, memoryId)));
    if (siteIds.length > 0) {
      await tx.insert(memorySites).values(siteIds.map((siteId) => ({ memoryId, siteId, userId })));
    }
  }

  return {
    /** The caller's profile, as far as memories need it; `undefined` before the profile exists. */
    async findOwner(subject: string) {
      const [row] = await findOwner.execute({ subject });
      return row;
    },

    /** Every memory not yet expired, newest first, with photos (oldest first) and properties. */
    async listLive(userId: string, now: Date): Promise<MemoryRecord[]> {
      const rows = await db
        .select()
        .from(memories)
        .where(and(eq(memories.userId, userId), live(now)))
        .orderBy(desc(memories.createdAt), desc(memories.id));
      if (rows.length === 0) return [];
      // All of the user's photos and properties in one query each (no IN list of hundreds of ids).
      const [images, links] = await Promise.all([
        db
          .select()
          .from(memoryImages)
          .where(eq(memoryImages.userId, userId))
          .orderBy(asc(memoryImages.createdAt), asc(memoryImages.id)),
        db
          .select({ memoryId: memorySites.memoryId, siteId: memorySites.siteId })
          .from(memorySites)
          .where(eq(memorySites.userId, userId)),
      ]);
      const byMemory = new Map<string, MemoryRecord>(
        rows.map((row) => [row.id, { row, images: [], siteIds: [] }]),
      );
      for (const image of images) byMemory.get(image.memoryId)?.images.push(image);
      for (const link of links) byMemory.get(link.memoryId)?.siteIds.push(link.siteId);
      return [...byMemory.values()];
    },

    async findLive(
      userId: string,
      category: MemoryCategory,
      id: string,
      now: Date,
    ): Promise<MemoryRecord | undefined> {
      const [row] = await db
        .select()
        .from(memories)
        .where(
          and(eq(memories.userId, userId), eq(memories.id, id), eq(memories.category, category), live(now)),
        )
        .limit(1);
      if (!row) return undefined;
      const [images, links] = await Promise.all([imagesOf(userId, [id]), sitesOf(userId, [id])]);
      return { row, images, siteIds: links.map((l) => l.siteId) };
    },

    /** The subset of `siteIds` that are the user's own live properties. */
    async ownedSiteIds(userId: string, siteIds: string[]): Promise<string[]> {
      if (siteIds.length === 0) return [];
      const rows = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(eq(sites.userId, userId), inArray(sites.id, siteIds), isNull(sites.removedAt)));
      return rows.map((r) => r.id);
    },

    async insert(
      userId: string,
      category: MemoryCategory,
      values: MemoryValues,
      siteIds: string[],
    ): Promise<MemoryRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(memories)
          .values({ userId, category, ...values })
          .returning();
        if (!row) throw new Error('memory insert returned nothing');
        await setSites(tx, userId, row.id, siteIds);
        return row;
      });
    },

    /** Updates the fields given; `siteIds` (when given) replaces the properties. Undefined when not found. */
    async update(
      userId: string,
      category: MemoryCategory,
      id: string,
      values: MemoryValues,
      siteIds: string[] | undefined,
      now: Date,
    ): Promise<MemoryRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(memories)
          .set({ ...values, updatedAt: now })
          .where(
            and(eq(memories.userId, userId), eq(memories.id, id), eq(memories.category, category), live(now)),
          )
          .returning();
        if (!row) return undefined;
        if (siteIds) await setSites(tx, userId, id, siteIds);
        return row;
      });
    },

    /** Deletes the memory (photos and properties cascade); answers the photos it had, for file clean-up. */
    async delete(
      userId: string,
      category: MemoryCategory,
      id: string,
      now: Date,
    ): Promise<{ row: MemoryRow; images: MemoryImageRow[] } | undefined> {
      return db.transaction(async (tx) => {
        const images = await tx
          .select()
          .from(memoryImages)
          .where(and(eq(memoryImages.userId, userId), eq(memoryImages.memoryId, id)));
        const [row] = await tx
          .delete(memories)
          .where(
            and(eq(memories.userId, userId), eq(memories.id, id), eq(memories.category, category), live(now)),
          )
          .returning();
        return row ? { row, images } : undefined;
      });
    },

    async countImages(userId: string, memoryId: string): Promise<number> {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(memoryImages)
        .where(and(eq(memoryImages.userId, userId), eq(memoryImages.memoryId, memoryId)));
      return r?.n ?? 0;
    },

    /**
     * Adds a photo unless the memory already holds `limit`: the memory row is locked first, so concurrent
     * uploads cannot pass the limit together. `missing` when the memory is gone.
     */
    async insertImageWithinLimit(
      userId: string,
      memoryId: string,
      image: NewImage,
      limit: number,
    ): Promise<MemoryImageRow | 'limit' | 'missing'> {
      return db.transaction(async (tx) => {
        const [memory] = await tx
          .select({ id: memories.id })
          .from(memories)
          .where(and(eq(memories.userId, userId), eq(memories.id, memoryId)))
          .for('update');
        if (!memory) return 'missing';
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(memoryImages)
          .where(eq(memoryImages.memoryId, memoryId));
        if ((count?.n ?? 0) >= limit) return 'limit';
        const [row] = await tx
          .insert(memoryImages)
          .values({ ...image, userId, memoryId })
          .returning();
        if (!row) throw new Error('image insert returned nothing');
        await tx.update(memories).set({ updatedAt: new Date() }).where(eq(memories.id, memoryId));
        return row;
      });
    },

    async deleteImage(
      userId: string,
      memoryId: string,
      imageId: string,
    ): Promise<MemoryImageRow | undefined> {
      const [row] = await db
        .delete(memoryImages)
        .where(
          and(
            eq(memoryImages.userId, userId),
            eq(memoryImages.memoryId, memoryId),
            eq(memoryImages.id, imageId),
          ),
        )
        .returning();
      return row;
    },

    /** Links every memory of the user to the site (bulk association after a property is created). */
    async associateAllWithSite(userId: string, siteId: string): Promise<number> {
      const rows = await db
        .insert(memorySites)
        .select(
          db
            .select({
              memoryId: memories.id,
              siteId: sql<string>`${siteId}::uuid`.as('site_id'),
              userId: memories.userId,
            })
            .from(memories)
            .where(eq(memories.userId, userId)),
        )
        .onConflictDoNothing()
        .returning({ memoryId: memorySites.memoryId });
      return rows.length;
    },

    /** Expired short-term memories, oldest first, at most `limit`; with their photos, for the purge job. */
    async findExpired(now: Date, limit: number): Promise<{ row: MemoryRow; images: MemoryImageRow[] }[]> {
      const rows = await db
        .select()
        .from(memories)
        .where(lte(memories.expiresAt, now))
        .orderBy(asc(memories.expiresAt))
        .limit(limit);
      if (rows.length === 0) return [];
      const images = await db
        .select()
        .from(memoryImages)
        .where(
          inArray(
            memoryImages.memoryId,
            rows.map((r) => r.id),
          ),
        );
      return rows.map((row) => ({ row, images: images.filter((i) => i.memoryId === row.id) }));
    },

    /** Deletes the given expired memories (still expired at `now`) of one user. */
    async deleteExpired(userId: string, ids: string[], now: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .delete(memories)
        .where(and(eq(memories.userId, userId), inArray(memories.id, ids), lte(memories.expiresAt, now)))
        .returning({ id: memories.id });
      return rows.map((r) => r.id);
    },
  };
}
export type MemoriesRepository = ReturnType<typeof createMemoriesRepository>;
