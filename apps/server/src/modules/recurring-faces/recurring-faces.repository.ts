import { and, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  activities,
  activityFaces,
  cameras,
  memories,
  recurringFaces,
  users,
} from '../../platform/db/schema.js';
import type { OfferedGroup, UnknownFace } from './recurring-faces.js';

export type RecurringFaceRow = typeof recurringFaces.$inferSelect;

/** What the offer needs of an activity: its media, to cut the face photos from. */
export type FaceActivity = Pick<
  typeof activities.$inferSelect,
  'id' | 'videoKey' | 'thumbnailKey' | 'imageKeys' | 'durationSeconds'
>;

export interface FaceOwner {
  id: string;
  authSubject: string;
  timezone: string | null;
  preferredLanguage: string;
  isFacialRecognitionEnabled: boolean;
  isAmnesiaModeEnabled: boolean;
}

const owner = {
  id: users.id,
  authSubject: users.authSubject,
  timezone: users.timezone,
  preferredLanguage: users.preferredLanguage,
  isFacialRecognitionEnabled: users.isFacialRecognitionEnabled,
  isAmnesiaModeEnabled: users.isAmnesiaModeEnabled,
};

/**
 * SQL of recurring faces: `recurring_faces` is this module's; the unknown faces are read from
 * `activity_faces` (written by the analysis through the activities module) as recognition reads them.
 * Every query is scoped by the user id.
 */
export function createRecurringFacesRepository(db: Db) {
  return {
    async owner(userId: string): Promise<FaceOwner | undefined> {
      const [row] = await db.select(owner).from(users).where(eq(users.id, userId));
      return row;
    },

    /** Users with facial recognition on and amnesia mode off who have unknown faces since `since`. */
    async ownersWithUnknownFaces(since: Date): Promise<FaceOwner[]> {
      return db
        .selectDistinct(owner)
        .from(activityFaces)
        .innerJoin(users, eq(users.id, activityFaces.userId))
        .where(
          and(
            isNull(activityFaces.memoryId),
            gte(activityFaces.createdAt, since),
            eq(users.isFacialRecognitionEnabled, true),
            eq(users.isAmnesiaModeEnabled, false),
          ),
        );
    },

    /**
     * The user's unknown faces of activities since `since`, from cameras that still have facial recognition
     * on, and never of an amnesia-mode activity (none are stored then anyway).
     */
    async unknownFaces(userId: string, since: Date): Promise<UnknownFace[]> {
      const rows = await db
        .select({
          id: activityFaces.id,
          activityId: activityFaces.activityId,
          descriptor: activityFaces.descriptor,
          box: activityFaces.box,
          occurredAt: activities.occurredAt,
        })
        .from(activityFaces)
        .innerJoin(activities, eq(activities.id, activityFaces.activityId))
        .innerJoin(cameras, eq(cameras.id, activities.cameraId))
        .where(
          and(
            eq(activityFaces.userId, userId),
            isNull(activityFaces.memoryId),
            eq(activities.userId, userId),
            gte(activities.occurredAt, since),
            isNull(activities.ephemeralUntil),
            eq(cameras.isFacialRecognitionEnabled, true),
          ),
        );
      return rows;
    },

    async activities(userId: string, ids: string[]): Promise<FaceActivity[]> {
      if (ids.length === 0) return [];
      return db
        .select({
          id: activities.id,
          videoKey: activities.videoKey,
          thumbnailKey: activities.thumbnailKey,
          imageKeys: activities.imageKeys,
          durationSeconds: activities.durationSeconds,
        })
        .from(activities)
        .where(and(eq(activities.userId, userId), inArray(activities.id, ids)));
    },

    async offered(userId: string): Promise<OfferedGroup[]> {
      return db
        .select({ centroid: recurringFaces.centroid, faceIds: recurringFaces.faceIds })
        .from(recurringFaces)
        .where(eq(recurringFaces.userId, userId));
    },

    async insert(values: typeof recurringFaces.$inferInsert): Promise<RecurringFaceRow> {
      const [row] = await db.insert(recurringFaces).values(values).returning();
      return row!;
    },

    async setMessage(userId: string, id: string, messageId: string): Promise<void> {
      await db
        .update(recurringFaces)
        .set({ messageId })
        .where(and(eq(recurringFaces.userId, userId), eq(recurringFaces.id, id)));
    },

    async byMessage(userId: string, messageId: string): Promise<RecurringFaceRow | undefined> {
      const [row] = await db
        .select()
        .from(recurringFaces)
        .where(and(eq(recurringFaces.userId, userId), eq(recurringFaces.messageId, messageId)))
        .orderBy(desc(recurringFaces.createdAt))
        .limit(1);
      return row;
    },

    /** Marks an open offer answered; false when it was answered already (a retried job, two replies). */
    async answer(
      userId: string,
      id: string,
      values: { status: 'named' | 'dismissed'; at: Date },
    ): Promise<boolean> {
      const done = await db
        .update(recurringFaces)
        .set({ status: values.status, answeredAt: values.at })
        .where(
          and(
            eq(recurringFaces.userId, userId),
            eq(recurringFaces.id, id),
            eq(recurringFaces.status, 'offered'),
          ),
        )
        .returning({ id: recurringFaces.id });
      return done.length > 0;
    },

    async setMemory(userId: string, id: string, memoryId: string): Promise<void> {
      await db
        .update(recurringFaces)
        .set({ memoryId })
        .where(and(eq(recurringFaces.userId, userId), eq(recurringFaces.id, id)));
    },

    /** A people memory of the user with this name (case-insensitive), if any. */
    async personNamed(userId: string, name: string): Promise<string | undefined> {
      const rows = await db
        .select({ id: memories.id, name: memories.name })
        .from(memories)
        .where(and(eq(memories.userId, userId), eq(memories.category, 'people')));
      return rows.find((r) => r.name?.trim().toLowerCase() === name.toLowerCase())?.id;
    },

    /**
     * Offers whose sightings are gone: last seen before `before` (RETENTION_DAYS), or none of their faces
     * left (their activities deleted by retention or "Delete history"). Answers them, for their photos.
     */
    async purgeGone(before: Date): Promise<RecurringFaceRow[]> {
      return db
        .delete(recurringFaces)
        .where(
          or(
            lt(recurringFaces.lastSeenAt, before),
            sql`not exists (select 1 from ${activityFaces} where ${activityFaces.userId} = ${recurringFaces.userId} and jsonb_exists(${recurringFaces.faceIds}, ${activityFaces.id}::text))`,
          ),
        )
        .returning();
    },
  };
}
export type RecurringFacesRepository = ReturnType<typeof createRecurringFacesRepository>;
