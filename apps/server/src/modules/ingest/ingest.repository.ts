import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  ingestCounters,
  uploads,
  type UploadSource,
  type MediaKind,
} from '../../platform/db/schema/activities.js';
import { cameraUploadCredentials } from '../../platform/db/schema/cameras.js';

export interface NewUploadRow {
  id: string;
  userId: string;
  cameraName: string;
  source: UploadSource;
  storageKey: string;
  originalName: string;
  mediaKind: MediaKind;
  contentType: string;
  sizeBytes: number;
}

/** SQL of the receiving side of camera ingest. */
export function createIngestRepository(db: Db) {
  return {
    /** Inserts the rows in one statement, on `tx` when given (the transaction that also sends their jobs). */
    async insertUploads(rows: NewUploadRow[], tx: Db = db): Promise<void> {
      if (rows.length > 0) await tx.insert(uploads).values(rows);
    },

    /** The day's "refused" counter of the user goes up by one. */
    async countRefusal(userId: string, day: string): Promise<void> {
      await db
        .insert(ingestCounters)
        .values({ userId, day, reason: 'refused', count: 1 })
        .onConflictDoUpdate({
          target: [ingestCounters.userId, ingestCounters.day, ingestCounters.reason],
          set: { count: sql`${ingestCounters.count} + 1` },
        });
    },

    /** Users who have an upload login, the only ones who can have uploads. */
    async usersWithUploadLogin(): Promise<string[]> {
      const rows = await db.select({ userId: cameraUploadCredentials.userId }).from(cameraUploadCredentials);
      return rows.map((r) => r.userId);
    },

    /** Which of these storage keys of the user an upload row refers to. */
    async knownStorageKeys(userId: string, keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .select({ key: uploads.storageKey })
        .from(uploads)
        .where(and(eq(uploads.userId, userId), inArray(uploads.storageKey, keys)));
      return new Set(rows.map((r) => r.key));
    },
  };
}
export type IngestRepository = ReturnType<typeof createIngestRepository>;
