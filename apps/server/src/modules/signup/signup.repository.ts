import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { appSettings, waitlist } from '../../platform/db/schema.js';

export function createSignupRepository(db: Db) {
  return {
    async getSetting(key: string): Promise<unknown> {
      const [row] = await db
        .select({ value: appSettings.value })
        .from(appSettings)
        .where(eq(appSettings.key, key));
      return row?.value;
    },

    async setSetting(key: string, value: unknown): Promise<void> {
      await db
        .insert(appSettings)
        .values({ key, value, updatedAt: new Date() })
        .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
    },

    async addToWaitlist(email: string): Promise<void> {
      await db.insert(waitlist).values({ email }).onConflictDoNothing();
    },

    async listWaitlist(): Promise<{ email: string; createdAt: Date }[]> {
      return db.select().from(waitlist).orderBy(asc(waitlist.createdAt), asc(waitlist.email));
    },
  };
}
export type SignupRepository = ReturnType<typeof createSignupRepository>;
