import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { pushTokens, users } from '../../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type UserPatch = Partial<Omit<typeof users.$inferInsert, 'id' | 'authSubject' | 'createdAt'>>;
export type PushTokenRow = typeof pushTokens.$inferSelect;

/** Users' SQL. Every query is scoped by the caller's own subject or user id. */
export function createUsersRepository(db: Db) {
  // The profile lookup runs on nearly every request: prepared once, it skips rebuilding the SQL each time.
  const findBySubject = db
    .select()
    .from(users)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .limit(1)
    .prepare('users_find_by_subject');

  return {
    async findBySubject(subject: string): Promise<UserRow | undefined> {
      const [row] = await findBySubject.execute({ subject });
      return row;
    },

    /** Inserts the profile unless one exists for the subject; `undefined` when it already existed. */
    async insert(values: typeof users.$inferInsert): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values(values)
        .onConflictDoNothing({ target: users.authSubject })
        .returning();
      return row;
    },

    async update(subject: string, patch: UserPatch): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.authSubject, subject))
        .returning();
      return row;
    },

    /** Deletes the profile; every row it owns goes with it (ON DELETE CASCADE). */
    async deleteBySubject(subject: string): Promise<UserRow | undefined> {
      const [row] = await db.delete(users).where(eq(users.authSubject, subject)).returning();
      return row;
    },

    /** A device token belongs to whoever registered it last (a phone changes hands, or accounts). */
    async upsertPushToken(
      userId: string,
      values: { token: string; platform: PushTokenRow['platform']; isSandbox: boolean },
    ): Promise<PushTokenRow> {
      const now = new Date();
      const [row] = await db
        .insert(pushTokens)
        .values({ userId, ...values, enabled: true })
        .onConflictDoUpdate({
          target: pushTokens.token,
          set: {
            userId,
            platform: values.platform,
            isSandbox: values.isSandbox,
            enabled: true,
            updatedAt: now,
          },
        })
        .returning();
      if (!row) throw new Error('push token upsert returned nothing');
      return row;
    },

    async findPushToken(userId: string, token: string, platform: PushTokenRow['platform']) {
      const [row] = await db
        .select()
        .from(pushTokens)
        .where(
          and(eq(pushTokens.userId, userId), eq(pushTokens.token, token), eq(pushTokens.platform, platform)),
        )
        .limit(1);
      return row;
    },

    async disablePushToken(
      userId: string,
      token: string,
      platform: PushTokenRow['platform'],
    ): Promise<PushTokenRow | undefined> {
      const [row] = await db
        .update(pushTokens)
        .set({ enabled: false, updatedAt: new Date() })
        .where(
          and(eq(pushTokens.userId, userId), eq(pushTokens.token, token), eq(pushTokens.platform, platform)),
        )
        .returning();
      return row;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
