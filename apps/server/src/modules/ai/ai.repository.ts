import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  activities,
  activityFaces,
  cameras,
  memories,
  memorySites,
  sites,
  users,
  type ActivityObject,
  type RecognisedMemory,
} from '../../platform/db/schema.js';

export type ActivityRow = typeof activities.$inferSelect;
export type ActivityFaceRow = typeof activityFaces.$inferSelect;
export type NewActivityFace = Pick<
  typeof activityFaces.$inferInsert,
  'box' | 'descriptor' | 'memoryId' | 'distance'
>;

/** The camera's settings that decide what the AI may do with its events. */
export interface CameraContext {
  id: string;
  name: string;
  siteId: string | null;
  notes: string | null;
  isMuted: boolean;
  isPrivateModeEnabled: boolean;
  isFacialRecognitionEnabled: boolean;
}

/** The owner's settings that decide what the AI may do, say and keep. */
export interface OwnerContext {
  id: string;
  preferredLanguage: string;
  timezone: string | null;
  isFacialRecognitionEnabled: boolean;
  isAmnesiaModeEnabled: boolean;
  isGlobalPrivacyModeEnabled: boolean;
}

export interface AnalysisContext {
  activity: ActivityRow;
  camera: CameraContext;
  user: OwnerContext;
  /** The camera's property name when the user has more than one property (descriptions then say which). */
  siteName: string | null;
}

/** A memory the recogniser may match: people by face, vehicles by type and colour, animals by species. */
export interface RecognisableMemory {
  id: string;
  category: 'people' | 'vehicles' | 'animals';
  name: string | null;
  owner: string | null;
  make: string | null;
  model: string | null;
  color: string | null;
  species: string | null;
  notes: string | null;
}

export interface AnalysisResult {
  objects: ActivityObject[];
  recognised: RecognisedMemory[];
  description: string;
  descriptionLocalized: string | null;
  analysedMedia: string;
}

/** Where an activity's alert stands after `claimAlert`. */
export type AlertClaim =
  | { kind: 'new'; messageId: string }
  | { kind: 'joined'; messageId: string; rootActivityId: string }
  | { kind: 'existing'; messageId: string };

const live = (now: Date) => or(isNull(memories.expiresAt), gt(memories.expiresAt, now));

/** The AI's SQL: activities' AI fields, their faces, alert bookkeeping, recognisable memories. */
export function createAiRepository(db: Db) {
  return {
    /** The activity with its camera and owner; undefined when the activity is gone (deleted, purged). */
    async loadContext(activityId: string): Promise<AnalysisContext | undefined> {
      const [row] = await db
        .select({
          activity: activities,
          camera: {
            id: cameras.id,
            name: cameras.name,
            siteId: cameras.siteId,
            notes: cameras.notes,
            isMuted: cameras.isMuted,
            isPrivateModeEnabled: cameras.isPrivateModeEnabled,
            isFacialRecognitionEnabled: cameras.isFacialRecognitionEnabled,
          },
          user: {
            id: users.id,
            preferredLanguage: users.preferredLanguage,
            timezone: users.timezone,
            isFacialRecognitionEnabled: users.isFacialRecognitionEnabled,
            isAmnesiaModeEnabled: users.isAmnesiaModeEnabled,
            isGlobalPrivacyModeEnabled: users.isGlobalPrivacyModeEnabled,
          },
          siteName: sites.name,
          activeSites: sql<number>`(select count(*)::int from ${sites} s where s.user_id = ${users.id} and s.removed_at is null)`,
        })
        .from(activities)
        .innerJoin(cameras, eq(cameras.id, activities.cameraId))
        .innerJoin(users, eq(users.id, activities.userId))
        .leftJoin(sites, and(eq(sites.id, cameras.siteId), isNull(sites.removedAt)))
        .where(eq(activities.id, activityId))
        .limit(1);
      if (!row) return undefined;
      return {
        activity: row.activity,
        camera: row.camera,
        user: row.user,
        siteName: row.activeSites > 1 ? row.siteName : null,
      };
    },

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

    /** The activities one alert message is about, first to last. */
    async alertActivities(userId: string, messageId: string): Promise<ActivityRow[]> {
      return db
        .select()
        .from(activities)
        .where(and(eq(activities.userId, userId), eq(activities.alertMessageId, messageId)))
        .orderBy(asc(activities.occurredAt), asc(activities.createdAt));
    },

    async findActivity(userId: string, activityId: string): Promise<ActivityRow | undefined> {
      const [row] = await db
        .select()
        .from(activities)
        .where(and(eq(activities.userId, userId), eq(activities.id, activityId)))
        .limit(1);
      return row;
    },

    async findActivities(userId: string, activityIds: string[]): Promise<ActivityRow[]> {
      if (activityIds.length === 0) return [];
      return db
        .select()
        .from(activities)
        .where(and(eq(activities.userId, userId), inArray(activities.id, activityIds)));
    },

    async facesOf(userId: string, activityId: string): Promise<ActivityFaceRow[]> {
      return db
        .select()
        .from(activityFaces)
        .where(and(eq(activityFaces.userId, userId), eq(activityFaces.activityId, activityId)))
        .orderBy(asc(activityFaces.createdAt), asc(activityFaces.id));
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

    async updateRecognition(
      userId: string,
      activityId: string,
      values: { recognised: RecognisedMemory[]; description: string; descriptionLocalized: string | null },
    ): Promise<void> {
      await db
        .update(activities)
        .set(values)
        .where(and(eq(activities.userId, userId), eq(activities.id, activityId)));
    },

    async updateDescriptions(
      activityId: string,
      values: { description: string; descriptionLocalized: string | null },
    ): Promise<void> {
      await db.update(activities).set(values).where(eq(activities.id, activityId));
    },

    /** A live memory of the user, any category. */
    async findMemory(userId: string, memoryId: string, now: Date) {
      const [row] = await db
        .select({ id: memories.id, category: memories.category, name: memories.name })
        .from(memories)
        .where(and(eq(memories.userId, userId), eq(memories.id, memoryId), live(now)))
        .limit(1);
      return row;
    },

    /** Live people and animal memories whose name is this, ignoring case and surrounding spaces. */
    async findNamedMemories(userId: string, name: string, now: Date) {
      return db
        .select({ id: memories.id, category: memories.category, name: memories.name })
        .from(memories)
        .where(
          and(
            eq(memories.userId, userId),
            inArray(memories.category, ['people', 'animals']),
            sql`lower(trim(${memories.name})) = ${name.trim().toLowerCase()}`,
            live(now),
          ),
        )
        .orderBy(asc(memories.createdAt));
    },

    /** Names and notes of the user's live memories (people, vehicles, animals), for the LLM's context. */
    async memoryNotes(userId: string, now: Date) {
      return db
        .select({ id: memories.id, category: memories.category, name: memories.name, notes: memories.notes })
        .from(memories)
        .where(
          and(
            eq(memories.userId, userId),
            inArray(memories.category, ['people', 'vehicles', 'animals']),
            live(now),
          ),
        );
    },

    /** Amnesia-mode activities whose time is up, oldest first. */
    async dueEphemeral(now: Date, limit: number): Promise<ActivityRow[]> {
      return db
        .select()
        .from(activities)
        .where(and(isNotNull(activities.ephemeralUntil), lte(activities.ephemeralUntil, now)))
        .orderBy(asc(activities.ephemeralUntil))
        .limit(limit);
    },

    /** Whether the message still speaks about any activity that is not due for purging. */
    async alertHasOtherActivities(userId: string, messageId: string, except: string[]): Promise<boolean> {
      const [row] = await db
        .select({ id: activities.id })
        .from(activities)
        .where(
          and(
            eq(activities.userId, userId),
            eq(activities.alertMessageId, messageId),
            except.length > 0 ? notInArray(activities.id, except) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}
export type AiRepository = ReturnType<typeof createAiRepository>;
