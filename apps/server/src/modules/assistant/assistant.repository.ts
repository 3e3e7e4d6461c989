import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  activities,
  cameras,
  chatMessages,
  memories,
  memorySites,
  sites,
  users,
} from '../../platform/db/schema.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { ObjectKind } from '../language/language.module.js';
import type { MemoryRow } from '../memories/memories.repository.js';

/** The owner as the assistant needs them: how to speak to them and what it may keep. */
export interface AssistantOwner {
  id: string;
  subject: string;
  timezone: string | null;
  preferredLanguage: string;
  isAmnesiaModeEnabled: boolean;
}

export interface ActivityFilter {
  from: Date;
  to: Date;
  /** Only these cameras (by id); absent: every camera in scope. */
  cameraIds?: string[];
  /** Only these properties; `null` stands for cameras without one. */
  siteIds?: (string | null)[];
  /** Any of these things: a kind, narrowed to labels of that kind when given. */
  objects?: { kind: ObjectKind; labels: string[] }[];
  /** Activities where any of these memories was recognised. */
  memoryIds?: string[];
  limit: number;
}

/** The assistant's SQL over activities, cameras, properties, memories and the chat, scoped by the user's id. */
export function createAssistantRepository(db: Db) {
  return {
    async owner(userId: string): Promise<AssistantOwner | undefined> {
      const [row] = await db
        .select({
          id: users.id,
          subject: users.authSubject,
          timezone: users.timezone,
          preferredLanguage: users.preferredLanguage,
          isAmnesiaModeEnabled: users.isAmnesiaModeEnabled,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row;
    },

    async message(userId: string, messageId: string) {
      const [row] = await db
        .select({
          id: chatMessages.id,
          role: chatMessages.role,
          text: chatMessages.text,
          sentAt: chatMessages.sentAt,
          replyToMessageId: chatMessages.replyToMessageId,
        })
        .from(chatMessages)
        .where(and(eq(chatMessages.userId, userId), eq(chatMessages.id, messageId)))
        .limit(1);
      return row;
    },

    /** The conversation just before a message (oldest first), for follow-up questions. */
    async messagesBefore(userId: string, before: Date, since: Date, limit: number) {
      const rows = await db
        .select({ role: chatMessages.role, text: chatMessages.text, sentAt: chatMessages.sentAt })
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.userId, userId),
            lt(chatMessages.sentAt, before),
            gte(chatMessages.sentAt, since),
          ),
        )
        .orderBy(desc(chatMessages.sentAt), desc(chatMessages.seq))
        .limit(limit);
      return rows.reverse();
    },

    /** Cameras not removed, with their property, in the order they were added (the prompt is stable). */
    cameras(userId: string) {
      return db
        .select({
          id: cameras.id,
          name: cameras.name,
          siteId: cameras.siteId,
          notes: cameras.notes,
          isPrivate: cameras.isPrivateModeEnabled,
          isMuted: cameras.isMuted,
          connectionType: cameras.connectionType,
          configurationStatus: cameras.configurationStatus,
          streamStatus: cameras.streamStatus,
          lastActivityAt: cameras.lastActivityAt,
        })
        .from(cameras)
        .where(and(eq(cameras.userId, userId), isNull(cameras.removedAt)))
        .orderBy(asc(cameras.createdAt), asc(cameras.id));
    },

    /**
     * The user's alerted activities since `since`, newest first, with what they showed: a correction sent
     * without replying to an alert is about the newest one that shows what it speaks of.
     */
    async recentAlerts(userId: string, since: Date, limit = 20) {
      const rows = await db
        .select({
          messageId: activities.alertMessageId,
          objects: activities.objects,
          recognised: activities.recognised,
        })
        .from(activities)
        .where(
          and(
            eq(activities.userId, userId),
            gte(activities.occurredAt, since),
            sql`${activities.alertMessageId} is not null`,
          ),
        )
        .orderBy(desc(activities.occurredAt))
        .limit(limit);
      return rows.map((r) => ({ ...r, messageId: r.messageId! }));
    },

    /** The activities an alert message shows (docs/alerts.md), first to last; none for any other message. */
    alertActivities(userId: string, messageId: string): Promise<ActivityRow[]> {
      return db
        .select()
        .from(activities)
        .where(and(eq(activities.userId, userId), eq(activities.alertMessageId, messageId)))
        .orderBy(asc(activities.occurredAt));
    },

    /** When the user last wrote in the chat before `before`: the last time they used the app, as we know it. */
    async lastUserMessageAt(userId: string, before: Date): Promise<Date | undefined> {
      const [row] = await db
        .select({ sentAt: chatMessages.sentAt })
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.userId, userId),
            eq(chatMessages.role, 'user'),
            lt(chatMessages.sentAt, before),
          ),
        )
        .orderBy(desc(chatMessages.sentAt))
        .limit(1);
      return row?.sentAt;
    },

    /** Properties not removed. */
    sites(userId: string) {
      return db
        .select({ id: sites.id, name: sites.name })
        .from(sites)
        .where(and(eq(sites.userId, userId), isNull(sites.removedAt)));
    },

    /** Memories not expired, with the properties each belongs to. */
    async memories(userId: string, now: Date): Promise<(MemoryRow & { siteIds: string[] })[]> {
      const [rows, links] = await Promise.all([
        db
          .select()
          .from(memories)
          .where(
            and(eq(memories.userId, userId), or(isNull(memories.expiresAt), gt(memories.expiresAt, now))),
          )
          .orderBy(desc(memories.createdAt)),
        db
          .select({ memoryId: memorySites.memoryId, siteId: memorySites.siteId })
          .from(memorySites)
          .where(eq(memorySites.userId, userId)),
      ]);
      return rows.map((row) => ({
        ...row,
        siteIds: links.filter((l) => l.memoryId === row.id).map((l) => l.siteId),
      }));
    },

    /**
     * Activities in the window matching the filter, newest first, at most `limit`, and how many matched in
     * all. Activities kept only for their alert (amnesia mode) are never found.
     */
    async searchActivities(
      userId: string,
      f: ActivityFilter,
    ): Promise<{ rows: ActivityRow[]; total: number }> {
      const where: (SQL | undefined)[] = [
        eq(activities.userId, userId),
        gte(activities.occurredAt, f.from),
        lt(activities.occurredAt, f.to),
        isNull(activities.ephemeralUntil),
      ];
      if (f.cameraIds)
        where.push(f.cameraIds.length ? inArray(activities.cameraId, f.cameraIds) : sql`false`);
      if (f.siteIds) {
        const ids = f.siteIds.filter((s): s is string => s !== null);
        const either = [
          ids.length ? inArray(activities.siteId, ids) : undefined,
          f.siteIds.includes(null) ? isNull(activities.siteId) : undefined,
        ].filter((c): c is SQL => c !== undefined);
        where.push(either.length ? or(...either) : sql`false`);
      }
      // jsonb containment: `[{"kind":"vehicle","label":"car"}]` matches any element with those fields.
      const contains = (column: typeof activities.objects | typeof activities.recognised, value: unknown) =>
        sql`${column} @> ${JSON.stringify([value])}::jsonb`;
      const any: SQL[] = [];
      for (const o of f.objects ?? []) {
        if (o.labels.length === 0) any.push(contains(activities.objects, { kind: o.kind }));
        else for (const label of o.labels) any.push(contains(activities.objects, { kind: o.kind, label }));
      }
      for (const id of f.memoryIds ?? []) any.push(contains(activities.recognised, { memory_uuid: id }));
      if (any.length) where.push(or(...any));
      const rows = await db
        .select({ activity: activities, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(activities)
        .where(and(...where))
        .orderBy(desc(activities.occurredAt))
        .limit(f.limit);
      return { rows: rows.map((r) => r.activity), total: rows[0]?.total ?? 0 };
    },
  };
}
export type AssistantRepository = ReturnType<typeof createAssistantRepository>;
