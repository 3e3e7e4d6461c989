import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, cameras, uploads, users } from '../../platform/db/schema.js';
import {
  countIngestEvent,
  deleteUploadRows,
  findUploadRow,
  finishPendingUpload,
  lockPendingUploads,
  markUploadsProcessed,
  releaseHeldUploads,
  uploadsReceivedBefore,
  type IngestCounterReason,
  type UploadRow,
} from '../ingest/ingest.module.js';
import { spendFreeEvent } from '../users/users.module.js';
import type { CaptionReader } from './activities.captions.js';

export type ActivityRow = typeof activities.$inferSelect;
export type NewActivity = typeof activities.$inferInsert;
export type ActivityPatch = Partial<
  Pick<
    NewActivity,
    | 'occurredAt'
    | 'lastFileAt'
    | 'mediaKind'
    | 'thumbnailKey'
    | 'videoKey'
    | 'hlsKey'
    | 'imageKeys'
    | 'width'
    | 'height'
    | 'durationSeconds'
    | 'cameraVerdict'
  >
>;
/** The ingest's row (`uploads` is its table), as the processing reads it. */
export type { UploadRow };

/** What processing needs to know about the owner of an upload. */
export interface UploadOwner {
  id: string;
  isGlobalPrivacyModeEnabled: boolean;
  /** Amnesia mode: a new activity exists only for its alert (see `activities.ephemeral_until`). */
  isAmnesiaModeEnabled: boolean;
  remainingFreeEvents: number;
  /** docs/product.md §9: a subscription counts when its status is `active`. */
  hasActiveSubscription: boolean;
}

export interface ActivityFilters {
  cameraName?: string | undefined;
  siteId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** An activity and whose it is: what deleting its media needs. */
export interface ActivityRef {
  id: string;
  userId: string;
}

const ownerColumns = {
  id: users.id,
  isGlobalPrivacyModeEnabled: users.isGlobalPrivacyModeEnabled,
  isAmnesiaModeEnabled: users.isAmnesiaModeEnabled,
  remainingFreeEvents: users.remainingFreeEvents,
  subscriptionStatus: users.stripeSubscriptionStatus,
};

function toOwner(row: {
  id: string;
  isGlobalPrivacyModeEnabled: boolean;
  isAmnesiaModeEnabled: boolean;
  remainingFreeEvents: number;
  subscriptionStatus: string | null;
}): UploadOwner {
  return {
    id: row.id,
    isGlobalPrivacyModeEnabled: row.isGlobalPrivacyModeEnabled,
    isAmnesiaModeEnabled: row.isAmnesiaModeEnabled,
    remainingFreeEvents: row.remainingFreeEvents,
    hasActiveSubscription: row.subscriptionStatus === 'active',
  };
}

/** A camera as a round's transaction locked it: what a new activity copies of it. */
export interface LockedCamera {
  id: string;
  name: string;
  siteId: string | null;
}

/** The statements processing runs, on the pool or inside one transaction. */
function processingQueries(db: Db) {
  return {
    /**
     * Uploads of a round, locked until the transaction ends; answers the ids still pending (the ingest's
     * statement, on this `db`).
     */
    async lockPendingUploads(uploadIds: string[]): Promise<Set<string>> {
      return lockPendingUploads(db, uploadIds);
    },

    /**
     * Cameras of a round, locked in id order (so two rounds never wait for each other in a circle): files of
     * one camera are grouped one at a time, also across server instances. Answers each camera's current name
     * and property by id (a camera missing is gone).
     */
    async lockCameras(cameraIds: string[]): Promise<Map<string, LockedCamera>> {
      if (cameraIds.length === 0) return new Map();
      const rows = await db
        .select({ id: cameras.id, name: cameras.name, siteId: cameras.siteId })
        .from(cameras)
        .where(inArray(cameras.id, cameraIds))
        .orderBy(asc(cameras.id))
        .for('update');
      return new Map(rows.map((r) => [r.id, r]));
    },

    /**
     * Every activity of these cameras whose files span to within the window of any time in [from, to]: all
     * that files of a round between `from` and `to` can join, in one statement.
     */
    async joinCandidates(
      cameraIds: string[],
      from: Date,
      to: Date,
      windowMs: number,
    ): Promise<ActivityRow[]> {
      if (cameraIds.length === 0) return [];
      return db
        .select()
        .from(activities)
        .where(
          and(
            inArray(activities.cameraId, cameraIds),
            lte(activities.occurredAt, new Date(to.getTime() + windowMs)),
            gte(activities.lastFileAt, new Date(from.getTime() - windowMs)),
          ),
        );
    },

    /** New activities of a round in one statement, answered as stored (for the realtime announcement). */
    async insertActivities(values: NewActivity[]): Promise<ActivityRow[]> {
      if (values.length === 0) return [];
      return db.insert(activities).values(values).returning();
    },

    /**
     * A round's files joining an activity: its patch, with the new snapshots appended to the stored list in
     * the statement (the list is not sent back whole each time; the row is locked, so nothing slips between).
     */
    async extendActivity(activityId: string, patch: ActivityPatch, addedImageKeys: string[]): Promise<void> {
      const { imageKeys: _replaced, ...rest } = patch;
      await db
        .update(activities)
        .set({
          ...rest,
          ...(addedImageKeys.length > 0 && {
            imageKeys: sql`${activities.imageKeys} || ${JSON.stringify(addedImageKeys)}::jsonb`,
          }),
        })
        .where(eq(activities.id, activityId));
    },

    /**
     * Marks a round's pending uploads processed into their activities, in one statement (the ingest's, whose
     * table `uploads` is, on this `db`); answers their ids.
     */
    async finishUploadsProcessed(
      done: { uploadId: string; activityId: string }[],
      at: Date,
    ): Promise<string[]> {
      return markUploadsProcessed(db, done, at);
    },

    /**
     * Moves a pending upload on (the ingest's statement, on this `db`); false when it was no longer pending
     * (another run got there first).
     */
    async finishUpload(
      uploadId: string,
      status: 'processed' | 'dropped' | 'held' | 'failed',
      activityId: string | null,
      at: Date,
    ): Promise<boolean> {
      return finishPendingUpload(db, uploadId, status, activityId, at);
    },

    /**
     * Uses one free event; false when none is left (checked and taken in one statement, the users module's,
     * on this `db`).
     */
    async takeFreeEvent(userId: string): Promise<boolean> {
      return spendFreeEvent(db, userId);
    },

    /**
     * Puts the user's held uploads received since `since` back to pending (the ingest's statement, on this
     * `db`); answers their ids.
     */
    async unholdUploads(userId: string, since: Date): Promise<string[]> {
      return releaseHeldUploads(db, userId, since);
    },

    /** The day's counter of a dropped or held upload, with the ingest's statement (its table), on this `db`. */
    async bumpCounter(userId: string, day: string, reason: IngestCounterReason): Promise<void> {
      await countIngestEvent(db, userId, day, reason);
    },
  };
}
export type ProcessingQueries = ReturnType<typeof processingQueries>;

/**
 * Activities' SQL, and the processing's read of a round's uploads with their owners (every statement that
 * reads or moves an upload's status is the ingest's, their free events the users module's, run here on the
 * same `db`). Every query a user's call reaches is scoped by
 * that user.
 */
export function createActivitiesRepository(db: Db) {
  const bySubject = (subject: string) =>
    sql`${activities.userId} = (select ${users.id} from ${users} where ${users.authSubject} = ${subject})`;

  return {
    ...processingQueries(db),

    /** Runs `fn` in one transaction with the processing statements bound to it (and `tx` to send jobs). */
    transaction<T>(fn: (q: ProcessingQueries, tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(processingQueries(tx), tx));
    },

    /** One upload's row (the ingest's statement). */
    async findUpload(uploadId: string): Promise<UploadRow | undefined> {
      return findUploadRow(db, uploadId);
    },

    async findOwner(userId: string): Promise<UploadOwner | undefined> {
      const [row] = await db.select(ownerColumns).from(users).where(eq(users.id, userId)).limit(1);
      return row && toOwner(row);
    },

    /** A round's uploads with their owners, in one statement (an upload whose user is gone has no owner). */
    async uploadsWithOwners(
      uploadIds: string[],
    ): Promise<{ upload: UploadRow; owner: UploadOwner | undefined }[]> {
      if (uploadIds.length === 0) return [];
      const rows = await db
        .select({ upload: uploads, owner: ownerColumns })
        .from(uploads)
        .leftJoin(users, eq(users.id, uploads.userId))
        .where(inArray(uploads.id, uploadIds));
      return rows.map((r) => ({ upload: r.upload, owner: r.owner ? toOwner(r.owner) : undefined }));
    },

    /** How the user reads captions (language and clock), by user id or token subject. */
    async reader(who: { userId: string } | { subject: string }): Promise<CaptionReader | undefined> {
      const [row] = await db
        .select({ preferredLanguage: users.preferredLanguage, timezone: users.timezone })
        .from(users)
        .where('userId' in who ? eq(users.id, who.userId) : eq(users.authSubject, who.subject))
        .limit(1);
      return row;
    },

    async findUserIdBySubject(subject: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.authSubject, subject))
        .limit(1);
      return row?.id;
    },

    /**
     * One page, newest first, in one query: the caller is found through the token subject and one row past
     * the page tells whether there is more (no count of everything the user has).
     */
    async listPage(
      subject: string,
      filters: ActivityFilters,
      offset: number,
      limit: number,
    ): Promise<ActivityRow[]> {
      return db
        .select()
        .from(activities)
        .where(
          and(
            bySubject(subject),
            // Kept only for an alert while amnesia mode was on: never part of the history.
            isNull(activities.ephemeralUntil),
            filters.cameraName === undefined
              ? undefined
              : sql`${activities.cameraId} in (select ${cameras.id} from ${cameras} where ${cameras.userId} = ${activities.userId} and lower(${cameras.name}) = lower(${filters.cameraName}))`,
            filters.siteId === undefined ? undefined : eq(activities.siteId, filters.siteId),
            filters.from === undefined ? undefined : gte(activities.occurredAt, filters.from),
            filters.to === undefined ? undefined : lte(activities.occurredAt, filters.to),
          ),
        )
        .orderBy(desc(activities.occurredAt), desc(activities.id))
        .limit(limit)
        .offset(offset);
    },

    async findBySubject(subject: string, activityId: string): Promise<ActivityRow | undefined> {
      const [row] = await db
        .select()
        .from(activities)
        .where(and(bySubject(subject), eq(activities.id, activityId)))
        .limit(1);
      return row;
    },

    /** The user's activities of these ids that exist, in no particular order. */
    async findActivities(userId: string, activityIds: string[]): Promise<ActivityRow[]> {
      if (activityIds.length === 0) return [];
      return db
        .select()
        .from(activities)
        .where(and(eq(activities.userId, userId), inArray(activities.id, activityIds)));
    },

    async findById(activityId: string): Promise<ActivityRow | undefined> {
      const [row] = await db.select().from(activities).where(eq(activities.id, activityId)).limit(1);
      return row;
    },

    /** The user's camera with this name (any case), removed or not. */
    async findCameraId(userId: string, name: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: cameras.id })
        .from(cameras)
        .where(and(eq(cameras.userId, userId), sql`lower(${cameras.name}) = lower(${name})`))
        .limit(1);
      return row?.id;
    },

    async cameraActivities(userId: string, cameraId: string, limit: number): Promise<ActivityRef[]> {
      return db
        .select({ id: activities.id, userId: activities.userId })
        .from(activities)
        .where(and(eq(activities.userId, userId), eq(activities.cameraId, cameraId)))
        .limit(limit);
    },

    async activitiesBefore(cutoff: Date, limit: number): Promise<ActivityRef[]> {
      return db
        .select({ id: activities.id, userId: activities.userId })
        .from(activities)
        .where(lt(activities.occurredAt, cutoff))
        .limit(limit);
    },

    async deleteActivities(ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db
        .delete(activities)
        .where(inArray(activities.id, ids))
        .returning({ id: activities.id });
      return rows.length;
    },

    /** Uploads received before `cutoff` (optionally of one status), oldest first (the ingest's statement). */
    async uploadsBefore(cutoff: Date, limit: number, status?: UploadRow['status']): Promise<UploadRow[]> {
      return uploadsReceivedBefore(db, cutoff, limit, status);
    },

    /**
     * Deletes upload rows (only those still in `onlyStatus`, when given; the ingest's statement) and answers
     * the deleted ones, whose bytes the caller then removes: a row is never left pointing at bytes already
     * gone.
     */
    async deleteUploads(ids: string[], onlyStatus?: UploadRow['status']): Promise<UploadRow[]> {
      return deleteUploadRows(db, ids, onlyStatus);
    },

    /** A renamed camera's activities show its new name. */
    async renameCamera(userId: string, cameraId: string, name: string): Promise<void> {
      await db
        .update(activities)
        .set({ cameraName: name })
        .where(and(eq(activities.userId, userId), eq(activities.cameraId, cameraId)));
    },
  };
}
export type ActivitiesRepository = ReturnType<typeof createActivitiesRepository>;
