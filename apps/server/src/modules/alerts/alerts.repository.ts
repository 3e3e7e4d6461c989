import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, activityFaces, cameras, memories, sites, users } from '../../platform/db/schema.js';
import type { ActivityFaceRow } from '../activities/activities.findings.repository.js';
import type { ActivityRow } from '../activities/activities.repository.js';

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

const live = (now: Date) => or(isNull(memories.expiresAt), gt(memories.expiresAt, now));

/**
 * The activity with its camera and owner; undefined when the activity is gone (deleted, purged). The alert,
 * its corrections and its richer sentence read it, and so does the analysis before them:
 * analysis.repository.ts takes it through alerts.module.ts, as analysis depends on alerts and never the
 * other way round.
 */
export async function loadAnalysisContext(db: Db, activityId: string): Promise<AnalysisContext | undefined> {
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
}

/**
 * The alerts' reads: an activity with its camera and owner, an alert's activities, the faces corrections teach from, memories by id and name, and
 * what amnesia's purge is due. What the alerts write on an activity (its alert, the corrections' names, the
 * richer sentence) goes through the activities module, the owner of `activities` and `activity_faces`.
 */
export function createAlertsRepository(db: Db) {
  return {
    /** The activity with its camera and owner (see `loadAnalysisContext`). */
    loadContext: (activityId: string) => loadAnalysisContext(db, activityId),

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

    async facesOf(userId: string, activityId: string): Promise<ActivityFaceRow[]> {
      return db
        .select()
        .from(activityFaces)
        .where(and(eq(activityFaces.userId, userId), eq(activityFaces.activityId, activityId)))
        .orderBy(asc(activityFaces.createdAt), asc(activityFaces.id));
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
export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
