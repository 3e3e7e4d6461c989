import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, activityFaces, memories, users } from '../../platform/db/schema.js';
import type { ActivityFaceRow } from '../activities/activities.findings.repository.js';
import type { ActivityRow } from '../activities/activities.repository.js';

const live = (now: Date) => or(isNull(memories.expiresAt), gt(memories.expiresAt, now));

/**
 * The alerts' reads: an alert's activities, the faces corrections teach from, memories by id and name, and
 * what amnesia's purge is due. What the alerts write on an activity (its alert, the corrections' names, the
 * richer sentence) goes through the activities module, the owner of `activities` and `activity_faces`.
 */
export function createAlertsRepository(db: Db) {
  return {
    /** The activities one alert message is about, first to last. */
    async alertActivities(userId: string, messageId: string): Promise<ActivityRow[]> {
      return db
        .select()
        .from(activities)
        .where(and(eq(activities.userId, userId), eq(activities.alertMessageId, messageId)))
        .orderBy(asc(activities.occurredAt), asc(activities.createdAt));
    },

    /** The language the user's alerts are written in (their profile's). */
    async preferredLanguage(userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ language: users.preferredLanguage })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row?.language;
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
