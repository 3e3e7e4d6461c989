import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { memories, memorySites } from '../../platform/db/schema.js';
import type { RecognisableMemory } from '../recognition/recognition.js';

const live = (now: Date) => or(isNull(memories.expiresAt), gt(memories.expiresAt, now));

/**
 * The analysis' reads: the memories it may recognise (the activity to look at comes from
 * `activities.api.loadContext`). What it found is written
 * through the activities module, the owner of `activities` and `activity_faces`.
 */
export function createAnalysisRepository(db: Db) {
  return {
    /**
     * Live people, vehicle and animal memories that apply at a property: those associated with it, and those
     * associated with no property at all (they apply everywhere). A camera outside any property sees only
     * the latter.
     */
    async recognisableMemories(
      userId: string,
      siteId: string | null,
      now: Date,
    ): Promise<RecognisableMemory[]> {
      const unassociated = sql`not exists (select 1 from ${memorySites} ms where ms.memory_id = ${memories.id})`;
      const here = siteId
        ? or(
            unassociated,
            sql`exists (select 1 from ${memorySites} ms where ms.memory_id = ${memories.id} and ms.site_id = ${siteId})`,
          )
        : unassociated;
      const rows = await db
        .select({
          id: memories.id,
          category: memories.category,
          name: memories.name,
          owner: memories.owner,
          make: memories.make,
          model: memories.model,
          color: memories.color,
          species: memories.species,
          notes: memories.notes,
        })
        .from(memories)
        .where(
          and(
            eq(memories.userId, userId),
            inArray(memories.category, ['people', 'vehicles', 'animals']),
            live(now),
            here,
          ),
        );
      return rows.filter((r): r is RecognisableMemory => r.category !== 'other');
    },
  };
}
export type AnalysisRepository = ReturnType<typeof createAnalysisRepository>;
