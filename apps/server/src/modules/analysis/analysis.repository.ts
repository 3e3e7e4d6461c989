import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  activities,
  activityFaces,
  memories,
  memorySites,
  type ActivityObject,
  type RecognisedMemory,
} from '../../platform/db/schema.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import { loadAnalysisContext } from '../alerts/alerts.repository.js';
import type { NewActivityFace, RecognisableMemory } from '../recognition/recognition.js';

export interface AnalysisResult {
  objects: ActivityObject[];
  recognised: RecognisedMemory[];
  description: string;
  descriptionLocalized: string | null;
  analysedMedia: string;
}

const live = (now: Date) => or(isNull(memories.expiresAt), gt(memories.expiresAt, now));

/** The analysis' SQL: the activity to look at, the memories it may recognise, and what it found. */
export function createAnalysisRepository(db: Db) {
  return {
    /** The activity with its camera and owner; undefined when the activity is gone (deleted, purged). */
    loadContext: (activityId: string) => loadAnalysisContext(db, activityId),

    async markEphemeral(activityId: string, until: Date): Promise<void> {
      await db
        .update(activities)
        .set({ ephemeralUntil: until })
        .where(and(eq(activities.id, activityId), isNull(activities.ephemeralUntil)));
    },

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

    /** Writes what the AI found and, unless `faces` is null (amnesia), replaces the activity's faces. */
    async saveAnalysis(
      activity: Pick<ActivityRow, 'id' | 'userId'>,
      result: AnalysisResult,
      faces: NewActivityFace[] | null,
      at: Date,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(activities)
          .set({
            objects: result.objects,
            recognised: result.recognised,
            description: result.description,
            descriptionLocalized: result.descriptionLocalized,
            analysedMedia: result.analysedMedia,
            analysedAt: at,
          })
          .where(eq(activities.id, activity.id));
        if (faces === null) return;
        await tx.delete(activityFaces).where(eq(activityFaces.activityId, activity.id));
        if (faces.length > 0)
          await tx
            .insert(activityFaces)
            .values(faces.map((f) => ({ ...f, activityId: activity.id, userId: activity.userId })));
      });
    },
  };
}
export type AnalysisRepository = ReturnType<typeof createAnalysisRepository>;
