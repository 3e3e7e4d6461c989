import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activitySummaries } from '../../platform/db/schema.js';

export type ActivitySummaryRow = typeof activitySummaries.$inferSelect;
export type NewActivitySummary = Omit<typeof activitySummaries.$inferInsert, 'id' | 'createdAt'>;

/** Activity summaries' SQL, scoped by the caller's user id. The AI's summary job writes with `insert`. */
export function createHighlightsRepository(db: Db) {
  return {
    async insert(values: NewActivitySummary): Promise<ActivitySummaryRow> {
      const [row] = await db.insert(activitySummaries).values(values).returning();
      if (!row) throw new Error('activity summary insert returned nothing');
      return row;
    },

    /** Summaries whose period starts within [start, end): the daily one first, then hourly by time. */
    listStartingBetween(userId: string, start: Date, end: Date): Promise<ActivitySummaryRow[]> {
      return db
        .select()
        .from(activitySummaries)
        .where(
          and(
            eq(activitySummaries.userId, userId),
            gte(activitySummaries.periodStart, start),
            lt(activitySummaries.periodStart, end),
          ),
        )
        .orderBy(
          sql`case when ${activitySummaries.period} = 'daily' then 0 else 1 end`,
          asc(activitySummaries.periodStart),
        );
    },
  };
}
export type HighlightsRepository = ReturnType<typeof createHighlightsRepository>;
