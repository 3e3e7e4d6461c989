import { and, desc, eq, gte, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, sites } from '../../platform/db/schema.js';
import type { RoutineHistory } from './routine.rules.js';

/** A person the camera saw at the place, not one in the background (docs/alerts.md, Merge). */
const person = sql`jsonb_path_exists(${activities.objects}, '$[*] ? (@.kind == "person" && !exists(@.background))')`;
const count = (where: ReturnType<typeof sql>) => sql<number>`(count(*) filter (where ${where}))::int`;
// Grouped by the select's positions: the zone is a parameter, so the same expression is not the same text twice.
const byFirstTwo = [sql.raw('1'), sql.raw('2')];

/**
 * The routine's reads: one camera's analysed events in a window, counted by local hour and sort of day in the
 * owner's zone. Events kept only for their alert in amnesia mode are not history (nothing is learnt from them).
 */
export function createRoutineRepository(db: Db) {
  return {
    /**
     * The name of another of the user's properties where someone the household knows was seen in [from, to),
     * if any: the household was there, not at the property of the event.
     */
    async knownPeopleElsewhere(
      userId: string,
      siteId: string,
      from: Date,
      to: Date,
    ): Promise<string | undefined> {
      const [row] = await db
        .select({ name: sites.name })
        .from(activities)
        .innerJoin(sites, eq(sites.id, activities.siteId))
        .where(
          and(
            eq(activities.userId, userId),
            ne(activities.siteId, siteId),
            isNull(sites.removedAt),
            isNull(activities.ephemeralUntil),
            sql`${activities.recognised} @> '[{"category":"people"}]'`,
            gte(activities.occurredAt, from),
            lt(activities.occurredAt, to),
          ),
        )
        .orderBy(desc(activities.occurredAt))
        .limit(1);
      return row?.name;
    },

    async history(
      userId: string,
      cameraId: string,
      window: { from: Date; to: Date },
      zone: string,
      judgedAt: Date,
    ): Promise<RoutineHistory> {
      const local = sql`(${activities.occurredAt} at time zone ${zone})`;
      const weekend = sql<boolean>`extract(dow from ${local})::int in (0, 6)`;
      const where = and(
        eq(activities.userId, userId),
        eq(activities.cameraId, cameraId),
        isNotNull(activities.analysedAt),
        isNull(activities.ephemeralUntil),
        gte(activities.occurredAt, window.from),
        lt(activities.occurredAt, window.to),
      );
      const cells = await db
        .select({
          hour: sql<number>`extract(hour from ${local})::int`,
          weekend,
          person: count(person),
          vehicle: count(sql`${activities.objects} @> '[{"kind":"vehicle"}]'`),
          animal: count(sql`${activities.objects} @> '[{"kind":"animal"}]'`),
          stranger: count(sql`${person} and not ${activities.recognised} @> '[{"category":"people"}]'`),
        })
        .from(activities)
        .where(where)
        .groupBy(...byFirstTwo);
      const days = await db
        .select({ date: sql<string>`to_char(${local}, 'YYYY-MM-DD')`, weekend })
        .from(activities)
        .where(where)
        .groupBy(...byFirstTwo)
        .orderBy(sql.raw('1'));
      const first = days[0];
      const spanDays = first
        ? Math.floor((judgedAt.getTime() - Date.parse(`${first.date}T00:00:00Z`)) / 86_400_000)
        : 0;
      return { days, spanDays, cells };
    },
  };
}
export type RoutineRepository = ReturnType<typeof createRoutineRepository>;
