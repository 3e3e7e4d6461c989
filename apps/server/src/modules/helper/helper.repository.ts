import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { helperLinks } from '../../platform/db/schema.js';

export type HelperLinkRow = typeof helperLinks.$inferSelect;

/** The helpers' link to the server, one row per user: the only writer of `helper_links`. */
export function createHelperRepository(db: Db) {
  return {
    async find(userId: string): Promise<HelperLinkRow | undefined> {
      const [row] = await db.select().from(helperLinks).where(eq(helperLinks.userId, userId)).limit(1);
      return row;
    },

    /** A helper of the user said hello. */
    async connected(userId: string, version: string, at: Date): Promise<void> {
      await db
        .insert(helperLinks)
        .values({ userId, connected: true, version, lastSeenAt: at })
        .onConflictDoUpdate({
          target: helperLinks.userId,
          set: { connected: true, version, lastSeenAt: at },
        });
    },

    /** These users' helpers answered the last ping. */
    async seen(userIds: string[], at: Date): Promise<void> {
      if (userIds.length === 0) return;
      await db
        .update(helperLinks)
        .set({ lastSeenAt: at })
        .where(and(inArray(helperLinks.userId, userIds), eq(helperLinks.connected, true)));
    },

    /** The user's last helper went away. */
    async disconnected(userId: string, at: Date): Promise<void> {
      await db
        .update(helperLinks)
        .set({ connected: false, lastSeenAt: at })
        .where(and(eq(helperLinks.userId, userId), eq(helperLinks.connected, true)));
    },

    /** At start of the instance that holds the helpers' sockets: none is connected yet. */
    async disconnectAll(): Promise<void> {
      await db.update(helperLinks).set({ connected: false }).where(eq(helperLinks.connected, true));
    },
  };
}
export type HelperRepository = ReturnType<typeof createHelperRepository>;
