import { and, asc, eq, gte, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, activitySummaries, memories, sites, users } from '../../platform/db/schema.js';

export type ActivitySummaryRow = typeof activitySummaries.$inferSelect;
export type NewActivitySummary = Omit<typeof activitySummaries.$inferInsert, 'id' | 'createdAt'>;
export type SummarisedActivity = typeof activities.$inferSelect;

/** An owner whose activities the jobs summarise, with how they read their day. */
export interface SummaryOwner {
  id: string;
  timezone: string | null;
  preferredLanguage: string;
}

/** Activity summaries' SQL, scoped by user id; the highlights jobs write with `replacePeriod`. */
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
          sql`${activitySummaries.siteId} nulls last`,
        );
    },

    /**
     * Makes the user's summaries of one period exactly `summaries` (one per property): each is inserted or
     * rewritten in place (the unique key is user, property, period and start), and a property that no longer
     * has activity in the period (its events were deleted) loses its summary.
     */
    async replacePeriod(
      userId: string,
      period: 'hourly' | 'daily',
      periodStart: Date,
      summaries: Omit<NewActivitySummary, 'userId' | 'period' | 'periodStart'>[],
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const kept = summaries.map((s) => s.siteId).filter((id): id is string => Boolean(id));
        const keepsNoProperty = summaries.some((s) => !s.siteId);
        await tx
          .delete(activitySummaries)
          .where(
            and(
              eq(activitySummaries.userId, userId),
              eq(activitySummaries.period, period),
              eq(activitySummaries.periodStart, periodStart),
              or(
                kept.length
                  ? notInArray(activitySummaries.siteId, kept)
                  : sql`${activitySummaries.siteId} is not null`,
                keepsNoProperty ? sql`false` : isNull(activitySummaries.siteId),
              ),
            ),
          );
        for (const s of summaries) {
          const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
          await tx.execute(sql`
            insert into ${activitySummaries}
              (user_id, site_id, period, period_start, period_end, counts, recognised_names, notable_moments, text, thumbnail_key)
            values
              (${userId}, ${s.siteId ?? null}, ${period}, ${periodStart.toISOString()}, ${s.periodEnd.toISOString()},
               ${json(s.counts ?? {})}, ${json(s.recognisedNames ?? [])}, ${json(s.notableMoments ?? [])},
               ${s.text}, ${s.thumbnailKey ?? null})
            on conflict (user_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), period, period_start)
            do update set
              period_end = excluded.period_end,
              counts = excluded.counts,
              recognised_names = excluded.recognised_names,
              notable_moments = excluded.notable_moments,
              text = excluded.text,
              thumbnail_key = excluded.thumbnail_key,
              created_at = now()`);
        }
      });
    },

    /**
     * Owners with activity in [from, to), amnesia mode off (nothing new is kept for the others, highlights
     * included). Activities kept only for their alert never count.
     */
    ownersWithActivity(from: Date, to: Date): Promise<SummaryOwner[]> {
      return db
        .selectDistinct({
          id: users.id,
          timezone: users.timezone,
          preferredLanguage: users.preferredLanguage,
        })
        .from(activities)
        .innerJoin(users, eq(users.id, activities.userId))
        .where(
          and(
            gte(activities.occurredAt, from),
            lt(activities.occurredAt, to),
            isNull(activities.ephemeralUntil),
            eq(users.isAmnesiaModeEnabled, false),
          ),
        );
    },

    /** One owner, as `ownersWithActivity` answers them; none for an unknown user or one in amnesia mode. */
    /** The periods the user has summaries of that start at or after `since`. */
    async periodsSince(userId: string, since: Date) {
      return db
        .selectDistinct({
          period: activitySummaries.period,
          periodStart: activitySummaries.periodStart,
          periodEnd: activitySummaries.periodEnd,
        })
        .from(activitySummaries)
        .where(and(eq(activitySummaries.userId, userId), gte(activitySummaries.periodStart, since)));
    },

    async owner(userId: string): Promise<SummaryOwner | undefined> {
      const [row] = await db
        .select({ id: users.id, timezone: users.timezone, preferredLanguage: users.preferredLanguage })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.isAmnesiaModeEnabled, false)));
      return row;
    },

    /** The user's activities in [from, to), oldest first. */
    activitiesBetween(userId: string, from: Date, to: Date): Promise<SummarisedActivity[]> {
      return db
        .select()
        .from(activities)
        .where(
          and(
            eq(activities.userId, userId),
            gte(activities.occurredAt, from),
            lt(activities.occurredAt, to),
            isNull(activities.ephemeralUntil),
          ),
        )
        .orderBy(asc(activities.occurredAt));
    },

    /** Names of the user's people and animals, so a written text can be checked for names it made up. */
    async memoryNames(userId: string): Promise<string[]> {
      const rows = await db
        .select({ name: memories.name })
        .from(memories)
        .where(and(eq(memories.userId, userId), inArray(memories.category, ['people', 'animals'])));
      return rows.map((r) => r.name?.trim()).filter((n): n is string => Boolean(n));
    },

    /** Names of the given properties (removed ones too: their past summaries still need a name). */
    async siteNames(userId: string, siteIds: string[]): Promise<Map<string, string>> {
      if (siteIds.length === 0) return new Map();
      const rows = await db
        .select({ id: sites.id, name: sites.name })
        .from(sites)
        .where(and(eq(sites.userId, userId), inArray(sites.id, siteIds)));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}
export type HighlightsRepository = ReturnType<typeof createHighlightsRepository>;
