import { and, desc, eq, gte, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  activities,
  activityFaces,
  type ActivityObject,
  type CameraVerdict,
  type RecognisedMemory,
  type RoutineVerdict,
} from '../../platform/db/schema.js';
import type { NewActivityFace } from '../recognition/recognition.js';
import type { ActivityRow } from './activities.repository.js';

export type ActivityFaceRow = typeof activityFaces.$inferSelect;

/** What the analysis found in an activity (`saveAnalysis`). */
export interface AnalysisResult {
  objects: ActivityObject[];
  recognised: RecognisedMemory[];
  description: string;
  descriptionLocalized: string | null;
  analysedMedia: string;
  /** A clip's new poster, its best frame (`storePoster`), replacing the one cut at arrival. */
  posterKey?: string;
}

/** Where an activity's alert stands after `claimAlert`. */
export type AlertClaim =
  | { kind: 'new'; messageId: string }
  | { kind: 'joined'; messageId: string; rootActivityId: string }
  | { kind: 'existing'; messageId: string };

/**
 * What the analysis and the alerts write on an activity: the analysis' findings with the activity's faces,
 * amnesia's expiry, the alert it belongs to, the corrections' names and the richer sentence. `activities` and
 * `activity_faces` are this module's tables; the analysis and the alerts reach these through its API.
 */
export function createActivityFindingsRepository(db: Db) {
  return {
    /** Amnesia mode: the activity is kept only for its alert, until `until` (unless it is marked already). */
    async markEphemeral(activityId: string, until: Date): Promise<void> {
      await db
        .update(activities)
        .set({ ephemeralUntil: until })
        .where(and(eq(activities.id, activityId), isNull(activities.ephemeralUntil)));
    },

    /**
     * Writes what the AI found and, unless `faces` is null (amnesia), replaces the activity's faces, in one
     * transaction.
     */
    async saveAnalysis(
      activity: Pick<ActivityRow, 'id' | 'userId' | 'occurredAt'>,
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
            ...(result.posterKey ? { thumbnailKey: result.posterKey } : {}),
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

    /**
     * Decides, one camera at a time (a transaction-scoped advisory lock), which alert an activity belongs to:
     * the one it already has, the alert of this camera whose first activity is within `windowMs`, or a new
     * one with `newMessageId`. Recorded before any message is sent, so a retried job never alerts twice.
     */
    async claimAlert(
      activity: Pick<ActivityRow, 'id' | 'cameraId' | 'occurredAt'>,
      windowMs: number,
      newMessageId: string,
    ): Promise<AlertClaim> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${activity.cameraId}))`);
        const [current] = await tx
          .select({ alertMessageId: activities.alertMessageId })
          .from(activities)
          .where(eq(activities.id, activity.id));
        if (current?.alertMessageId) return { kind: 'existing', messageId: current.alertMessageId };
        const [root] = await tx
          .select({ id: activities.id, alertMessageId: activities.alertMessageId })
          .from(activities)
          .where(
            and(
              eq(activities.cameraId, activity.cameraId),
              ne(activities.id, activity.id),
              isNotNull(activities.alertMessageId),
              eq(activities.coalescedActivityId, activities.id),
              gte(activities.occurredAt, new Date(activity.occurredAt.getTime() - windowMs)),
              lte(activities.occurredAt, new Date(activity.occurredAt.getTime() + windowMs)),
            ),
          )
          .orderBy(desc(activities.occurredAt))
          .limit(1);
        const claim: AlertClaim = root?.alertMessageId
          ? { kind: 'joined', messageId: root.alertMessageId, rootActivityId: root.id }
          : { kind: 'new', messageId: newMessageId };
        await tx
          .update(activities)
          .set({
            alertMessageId: claim.messageId,
            coalescedActivityId: claim.kind === 'joined' ? claim.rootActivityId : activity.id,
          })
          .where(eq(activities.id, activity.id));
        return claim;
      });
    },

    /** Names a face (distance 0: the user confirmed it, so it is one of the memory's examples now). */
    async setFaceMemory(
      userId: string,
      faceId: string,
      memoryId: string | null,
      distance: number | null,
    ): Promise<void> {
      await db
        .update(activityFaces)
        .set({ memoryId, distance })
        .where(and(eq(activityFaces.userId, userId), eq(activityFaces.id, faceId)));
    },

    /** A correction's outcome: who is recognised on the user's activity, and the sentences that say so. */
    async updateRecognition(
      userId: string,
      activityId: string,
      values: { recognised: RecognisedMemory[]; description: string; descriptionLocalized: string | null },
    ): Promise<Date | undefined> {
      const [row] = await db
        .update(activities)
        .set(values)
        .where(and(eq(activities.userId, userId), eq(activities.id, activityId)))
        .returning({ occurredAt: activities.occurredAt });
      return row?.occurredAt;
    },

    /** How the event compares with its camera's routine (null: too little history to tell). */
    async saveRoutine(activityId: string, routine: RoutineVerdict | null): Promise<void> {
      await db.update(activities).set({ routine }).where(eq(activities.id, activityId));
    },

    /** The language model's richer sentences. */
    /**
     * Adds to the camera maker's verdict (a later message of the same event); answers the activity as it is
     * then, or undefined when the verdict held all of them already (a redelivery) or the activity is gone.
     */
    async addCameraVerdict(
      activityId: string,
      verdict: readonly CameraVerdict[],
    ): Promise<ActivityRow | undefined> {
      const added = JSON.stringify(verdict);
      const [row] = await db
        .update(activities)
        .set({
          cameraVerdict: sql`(select coalesce(jsonb_agg(distinct v), '[]'::jsonb) from jsonb_array_elements(${activities.cameraVerdict} || ${added}::jsonb) v)`,
        })
        .where(and(eq(activities.id, activityId), sql`not (${activities.cameraVerdict} @> ${added}::jsonb)`))
        .returning();
      return row;
    },

    async updateDescriptions(
      activityId: string,
      values: { description: string; descriptionLocalized: string | null },
    ): Promise<void> {
      await db.update(activities).set(values).where(eq(activities.id, activityId));
    },
  };
}
export type ActivityFindingsRepository = ReturnType<typeof createActivityFindingsRepository>;
