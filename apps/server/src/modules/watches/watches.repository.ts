import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { watches } from '../../platform/db/schema.js';

export type WatchRow = typeof watches.$inferSelect;
export type NewWatch = Omit<typeof watches.$inferInsert, 'id' | 'createdAt' | 'endedAt' | 'endReason'>;
export type EndReason = NonNullable<WatchRow['endReason']>;

/** The watches table, read and written by user id only (the expiry job ends any user's that are due). */
export function createWatchesRepository(db: Db) {
  const active = (userId: string, now: Date) =>
    and(eq(watches.userId, userId), isNull(watches.endedAt), gt(watches.endsAt, now));
  return {
    async create(values: NewWatch): Promise<WatchRow> {
      const [row] = await db.insert(watches).values(values).returning();
      return row!;
    },

    /** The user's watches that have not ended, oldest first. */
    async active(userId: string, now: Date): Promise<WatchRow[]> {
      return db.select().from(watches).where(active(userId, now)).orderBy(asc(watches.createdAt));
    },

    async countActive(userId: string, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(watches)
        .where(active(userId, now));
      return row?.n ?? 0;
    },

    /**
     * The user's watches an event at `at` may match: running then and not ended, or ended by this very event
     * (its analysis run again).
     */
    async forEvent(userId: string, at: Date, activityId: string): Promise<WatchRow[]> {
      return db
        .select()
        .from(watches)
        .where(
          and(
            eq(watches.userId, userId),
            lte(watches.startsAt, at),
            gt(watches.endsAt, at),
            or(isNull(watches.endedAt), eq(watches.matchedActivityId, activityId)),
          ),
        )
        .orderBy(asc(watches.createdAt));
    },

    /** Ends these of the user's watches that are still running; answers those it ended. */
    async end(userId: string, ids: string[], reason: EndReason, now: Date): Promise<WatchRow[]> {
      if (ids.length === 0) return [];
      return db
        .update(watches)
        .set({ endedAt: now, endReason: reason })
        .where(and(eq(watches.userId, userId), inArray(watches.id, ids), isNull(watches.endedAt)))
        .returning();
    },

    /**
     * Claims a once-watch for an event: ends it as matched by that event. True when this event holds it (now
     * or from an earlier run of the same analysis), false when another event took it first.
     */
    async claim(userId: string, id: string, activityId: string, now: Date): Promise<boolean> {
      const [claimed] = await db
        .update(watches)
        .set({ endedAt: now, endReason: 'matched', matchedActivityId: activityId })
        .where(and(eq(watches.userId, userId), eq(watches.id, id), isNull(watches.endedAt)))
        .returning({ id: watches.id });
      if (claimed) return true;
      const [held] = await db
        .select({ id: watches.id })
        .from(watches)
        .where(
          and(eq(watches.userId, userId), eq(watches.id, id), eq(watches.matchedActivityId, activityId)),
        );
      return held !== undefined;
    },

    /** Ends every running watch whose time is up; answers them. */
    async expireDue(now: Date): Promise<WatchRow[]> {
      return db
        .update(watches)
        .set({ endedAt: now, endReason: 'expired' })
        .where(and(isNull(watches.endedAt), lte(watches.endsAt, now)))
        .returning();
    },
  };
}
export type WatchesRepository = ReturnType<typeof createWatchesRepository>;
