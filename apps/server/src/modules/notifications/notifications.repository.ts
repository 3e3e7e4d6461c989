import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { pushTokens, users } from '../../platform/db/schema.js';

/** What deciding and addressing a notification needs from the profile. */
export type Recipient = Pick<
  typeof users.$inferSelect,
  'notificationsStatus' | 'notificationPreferences' | 'phoneNumber' | 'preferredLanguage'
>;

/** An enabled push token; `updatedAt` tells whether it was registered again while a push was under way. */
export type PushTokenTarget = Pick<
  typeof pushTokens.$inferSelect,
  'id' | 'token' | 'platform' | 'isSandbox' | 'updatedAt'
>;

export type PushTokenRow = typeof pushTokens.$inferSelect;

/** Devices one alert fans out to at most, newest registrations first. */
export const MAX_TOKENS_PER_USER = 20;

/** The notifications module's SQL, the only writer of `push_tokens`. Every query is scoped by the user id it is given. */
export function createNotificationsRepository(db: Db) {
  return {
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

    async findRecipient(userId: string): Promise<Recipient | undefined> {
      const [row] = await db
        .select({
          notificationsStatus: users.notificationsStatus,
          notificationPreferences: users.notificationPreferences,
          phoneNumber: users.phoneNumber,
          preferredLanguage: users.preferredLanguage,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row;
    },

    async enabledPushTokens(userId: string): Promise<PushTokenTarget[]> {
      return db
        .select({
          id: pushTokens.id,
          token: pushTokens.token,
          platform: pushTokens.platform,
          isSandbox: pushTokens.isSandbox,
          updatedAt: pushTokens.updatedAt,
        })
        .from(pushTokens)
        .where(and(eq(pushTokens.userId, userId), eq(pushTokens.enabled, true)))
        .orderBy(desc(pushTokens.updatedAt))
        .limit(MAX_TOKENS_PER_USER);
    },

    /** One enabled push token of the user by its row id (an alert's retry). */
    async findEnabledPushToken(userId: string, tokenId: string): Promise<PushTokenTarget | undefined> {
      const [row] = await db
        .select({
          id: pushTokens.id,
          token: pushTokens.token,
          platform: pushTokens.platform,
          isSandbox: pushTokens.isSandbox,
          updatedAt: pushTokens.updatedAt,
        })
        .from(pushTokens)
        .where(and(eq(pushTokens.userId, userId), eq(pushTokens.id, tokenId), eq(pushTokens.enabled, true)))
        .limit(1);
      return row;
    },

    /**
     * Disables tokens a push service called dead. A token registered again since it was read (its
     * `updatedAt` moved on) is left alone: the device has a fresh registration behind the same string.
     */
    async disableDeadTokens(userId: string, dead: PushTokenTarget[]): Promise<number> {
      if (dead.length === 0) return 0;
      let disabled = 0;
      const now = new Date();
      for (const token of dead) {
        const rows = await db
          .update(pushTokens)
          .set({ enabled: false, updatedAt: now })
          .where(
            and(
              eq(pushTokens.userId, userId),
              eq(pushTokens.id, token.id),
              // The database keeps microseconds and the driver hands back milliseconds: "not touched
              // since" is "before the read value plus one millisecond".
              sql`${pushTokens.updatedAt} < ${token.updatedAt.toISOString()}::timestamptz + interval '1 millisecond'`,
            ),
          )
          .returning({ id: pushTokens.id });
        disabled += rows.length;
      }
      return disabled;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
