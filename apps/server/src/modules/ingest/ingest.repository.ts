import { ACTIVITY_GROUPING_SECONDS } from '@homesitter/contract';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  ingestCounters,
  uploads,
  type CameraVerdict,
  type UploadSource,
  type EventMediaKind,
} from '../../platform/db/schema/ingest.js';
import { cameraUploadCredentials } from '../../platform/db/schema/cameras.js';
import { users } from '../../platform/db/schema/users.js';

export type UploadRow = typeof uploads.$inferSelect;

export interface NewUploadRow {
  id: string;
  userId: string;
  cameraName: string;
  source: UploadSource;
  /** Null: an upload without media (see `EVENT_MEDIA_KINDS`). */
  storageKey: string | null;
  originalName: string;
  mediaKind: EventMediaKind;
  contentType: string | null;
  sizeBytes: number;
  /** SHA-256 of the bytes, hex. */
  contentSha256?: string;
  cameraVerdict?: CameraVerdict[];
  /** When the event happened, where the sender knows better than the arrival (default: now). */
  receivedAt?: Date;
  forActivityId?: string;
}

/** How long a file sent again (same camera, name, size and bytes) is recognised as the one already stored. */
export const RESEND_WINDOW_SECONDS = 60 * 60;

/** Why an upload was counted instead of kept: refused by the ingest, dropped or held by the processing. */
export type IngestCounterReason = (typeof ingestCounters.$inferInsert)['reason'];

/**
 * The user's counter of the day for `reason` goes up by one: the one statement that writes `ingest_counters`.
 * The ingest counts refusals with it; the processing counts dropped and held uploads on its own transaction
 * (`db` is then that transaction), in the same commit as the upload's new status.
 */
export async function countIngestEvent(
  db: Db,
  userId: string,
  day: string,
  reason: IngestCounterReason,
): Promise<void> {
  await db
    .insert(ingestCounters)
    .values({ userId, day, reason, count: 1 })
    .onConflictDoUpdate({
      target: [ingestCounters.userId, ingestCounters.day, ingestCounters.reason],
      set: { count: sql`${ingestCounters.count} + 1` },
    });
}

/*
 * The statements below are the only ones besides `insertUploads` that write `uploads`: the processing
 * (activities) moves uploads on with them on its own transaction (`db` is then that transaction), so an
 * upload's new status commits with the activity it went into.
 */

/** Marks pending uploads processed into their activities, in one statement; answers their ids. */
export async function markUploadsProcessed(
  db: Db,
  done: { uploadId: string; activityId: string }[],
  at: Date,
): Promise<string[]> {
  if (done.length === 0) return [];
  const pairs = sql.join(
    done.map((d) => sql`(${d.uploadId}::uuid, ${d.activityId}::uuid)`),
    sql`, `,
  );
  const rows = await db
    .update(uploads)
    .set({ status: 'processed', activityId: sql`v.activity_id`, processedAt: at })
    .from(sql`(values ${pairs}) as v(upload_id, activity_id)`)
    .where(and(sql`${uploads.id} = v.upload_id`, eq(uploads.status, 'pending')))
    .returning({ id: uploads.id });
  return rows.map((r) => r.id);
}

/** Moves a pending upload on; false when it was no longer pending (another run got there first). */
export async function finishPendingUpload(
  db: Db,
  uploadId: string,
  status: 'processed' | 'dropped' | 'held' | 'failed',
  activityId: string | null,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ status, activityId, processedAt: at })
    .where(and(eq(uploads.id, uploadId), eq(uploads.status, 'pending')))
    .returning({ id: uploads.id });
  return rows.length > 0;
}

/** Puts the user's held uploads received since `since` back to pending; answers their ids. */
export async function releaseHeldUploads(db: Db, userId: string, since: Date): Promise<string[]> {
  const rows = await db
    .update(uploads)
    .set({ status: 'pending', processedAt: null })
    .where(and(eq(uploads.userId, userId), eq(uploads.status, 'held'), gte(uploads.receivedAt, since)))
    .returning({ id: uploads.id });
  return rows.map((r) => r.id);
}

/**
 * Deletes upload rows (only those still in `onlyStatus`, when given) and answers the deleted ones, whose
 * bytes the caller then removes: a row is never left pointing at bytes already gone.
 */
export async function deleteUploadRows(
  db: Db,
  ids: string[],
  onlyStatus?: UploadRow['status'],
): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  return db
    .delete(uploads)
    .where(
      and(inArray(uploads.id, ids), onlyStatus === undefined ? undefined : eq(uploads.status, onlyStatus)),
    )
    .returning();
}

/**
 * Uploads of a round, locked until the transaction ends; answers the ids still pending (a duplicated job's
 * run waits here, then sees its upload is done).
 */
export async function lockPendingUploads(db: Db, uploadIds: string[]): Promise<Set<string>> {
  if (uploadIds.length === 0) return new Set();
  const rows = await db
    .select({ id: uploads.id, status: uploads.status })
    .from(uploads)
    .where(inArray(uploads.id, uploadIds))
    .orderBy(asc(uploads.id))
    .for('update');
  return new Set(rows.filter((r) => r.status === 'pending').map((r) => r.id));
}

/** One upload's row. */
export async function findUploadRow(db: Db, uploadId: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, uploadId)).limit(1);
  return row;
}

/** Uploads received before `cutoff` (optionally of one status), oldest first. */
export async function uploadsReceivedBefore(
  db: Db,
  cutoff: Date,
  limit: number,
  status?: UploadRow['status'],
): Promise<UploadRow[]> {
  return db
    .select()
    .from(uploads)
    .where(and(lt(uploads.receivedAt, cutoff), status === undefined ? undefined : eq(uploads.status, status)))
    .orderBy(uploads.receivedAt)
    .limit(limit);
}

/** SQL of the receiving side of camera ingest. */
export function createIngestRepository(db: Db) {
  return {
    async uploadOutcome(
      userId: string,
      uploadId: string,
    ): Promise<Pick<UploadRow, 'status' | 'activityId'> | undefined> {
      const [row] = await db
        .select({ status: uploads.status, activityId: uploads.activityId })
        .from(uploads)
        .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId)));
      return row;
    },

    /** Inserts the rows in one statement, on `tx` when given (the transaction that also sends their jobs). */
    async insertUploads(rows: NewUploadRow[], tx: Db = db): Promise<void> {
      if (rows.length > 0) await tx.insert(uploads).values(rows);
    },

    /**
     * Which of the rows were already committed within the resend window (the same user, camera, file name,
     * size and content hash): a map from the row's id to the stored upload's id. Takes a transaction-level
     * lock per content first, so a copy committing at the same time on another connection is waited for and
     * then seen: two copies cannot both pass. Run it on the transaction that then inserts the rest.
     */
    async findResent(rows: NewUploadRow[], tx: Db): Promise<Map<string, string>> {
      const hashed = rows.filter((r) => r.contentSha256);
      if (hashed.length === 0) return new Map();
      // All of a group's locks in one statement (one round trip, not one per file), in a fixed order so two
      // instances committing overlapping groups cannot deadlock.
      const locks = [...new Set(hashed.map((r) => `${r.userId}:${r.contentSha256}`))].sort();
      const keys = sql.join(
        locks.map((key) => sql`${key}`),
        sql`, `,
      );
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from (select unnest(array[${keys}]::text[]) as k order by 1) as ordered`,
      );
      const values = sql.join(
        hashed.map(
          (r) =>
            sql`(${r.id}::uuid, ${r.userId}::uuid, ${r.cameraName}, ${r.originalName}, ${r.sizeBytes}::bigint, ${r.contentSha256})`,
        ),
        sql`, `,
      );
      const found = await tx
        .select({ rowId: sql<string>`v.row_id`, uploadId: uploads.id })
        .from(
          sql`(values ${values}) as v(row_id, user_id, camera_name, original_name, size_bytes, content_sha256)`,
        )
        .innerJoin(
          uploads,
          and(
            sql`${uploads.userId} = v.user_id`,
            sql`${uploads.contentSha256} = v.content_sha256`,
            sql`${uploads.cameraName} = v.camera_name`,
            sql`${uploads.originalName} = v.original_name`,
            sql`${uploads.sizeBytes} = v.size_bytes`,
            sql`${uploads.receivedAt} > now() - make_interval(secs => ${RESEND_WINDOW_SECONDS})`,
          ),
        );
      return new Map(found.map((f) => [f.rowId, f.uploadId]));
    },

    /** The day's "refused" counter of the user goes up by one. */
    async countRefusal(userId: string, day: string): Promise<void> {
      await countIngestEvent(db, userId, day, 'refused');
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
      return new Set(rows.flatMap((r) => (r.key ? [r.key] : [])));
    },
  };
}
export type IngestRepository = ReturnType<typeof createIngestRepository>;

/** Files closer than this are one event (a literal: the window function compares it per row). */
const GROUPING_INTERVAL = sql.raw(`interval '${ACTIVITY_GROUPING_SECONDS} seconds'`);

/**
 * Per camera name (lower case), the events private mode dropped since the start of the owner's day (in their
 * time zone, UTC when unset): the dropped rows stay for the retention period without their bytes. Files less
 * than 10 s apart are one event, as the processing would have grouped them (ACTIVITY_GROUPING_SECONDS).
 */
export async function privateEventsToday(db: Db, userId: string): Promise<Map<string, number>> {
  const zone = sql`coalesce(${users.timezone}, 'UTC')`;
  const marked = db
    .select({
      name: sql<string>`lower(${uploads.cameraName})`.as('name'),
      starts: sql<boolean>`coalesce(${uploads.receivedAt} - lag(${uploads.receivedAt}) over (
        partition by lower(${uploads.cameraName}) order by ${uploads.receivedAt}
      ) > ${GROUPING_INTERVAL}, true)`.as('starts'),
    })
    .from(uploads)
    .innerJoin(users, eq(users.id, uploads.userId))
    .where(
      and(
        eq(uploads.userId, userId),
        eq(uploads.status, 'dropped'),
        sql`${uploads.receivedAt} >= (date_trunc('day', now() at time zone ${zone}) at time zone ${zone})`,
      ),
    )
    .as('marked');
  const rows = await db
    .select({
      name: marked.name,
      events: sql<number>`count(*) filter (where ${marked.starts})`.mapWith(Number),
    })
    .from(marked)
    .groupBy(marked.name);
  return new Map(rows.map((r) => [r.name, r.events]));
}
