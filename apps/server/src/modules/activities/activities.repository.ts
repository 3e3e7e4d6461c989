import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, cameras, ingestCounters, uploads, users } from '../../platform/db/schema.js';
import type { CameraRow } from '../cameras/cameras.repository.js';

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
  >
>;
export type UploadRow = typeof uploads.$inferSelect;
export type CounterReason = (typeof ingestCounters.$inferInsert)['reason'];

/** What processing needs to know about the owner of an upload. */
export interface UploadOwner {
  id: string;
  isGlobalPrivacyModeEnabled: boolean;
  /** Amnesia mode: a new activity exists only for its alert (see `activities.ephemeral_until`). */
  isAmnesiaModeEnabled: boolean;
  remainingFreeEvents: number;
  /** Spec §9: a subscription counts when its status is `active`. */
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

/** The statements processing runs, on the pool or inside one transaction. */
function processingQueries(db: Db) {
  return {
    /**
     * Uploads of a round, locked until the transaction ends; answers the ids still pending (a duplicated
     * job's run waits here, then sees its upload is done).
     */
    async lockPendingUploads(uploadIds: string[]): Promise<Set<string>> {
      if (uploadIds.length === 0) return new Set();
      const rows = await db
        .select({ id: uploads.id, status: uploads.status })
        .from(uploads)
        .where(inArray(uploads.id, uploadIds))
        .orderBy(asc(uploads.id))
        .for('update');
      return new Set(rows.filter((r) => r.status === 'pending').map((r) => r.id));
    },

    /** Cameras of a round, locked in id order (so two rounds never wait for each other in a circle). */
    async lockCameras(cameraIds: string[]): Promise<Set<string>> {
      if (cameraIds.length === 0) return new Set();
      const rows = await db
        .select({ id: cameras.id })
        .from(cameras)
        .where(inArray(cameras.id, cameraIds))
        .orderBy(asc(cameras.id))
        .for('update');
      return new Set(rows.map((r) => r.id));
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

    /** Marks a round's pending uploads processed into their activities, in one statement; answers their ids. */
    async finishUploadsProcessed(
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
    },

    /** The upload, locked until the transaction ends: a duplicated job waits here, then sees it is done. */
    async lockUpload(uploadId: string): Promise<UploadRow | undefined> {
      const [row] = await db.select().from(uploads).where(eq(uploads.id, uploadId)).for('update').limit(1);
      return row;
    },

    /**
     * The camera's current name and property, locked: files of one camera are grouped one at a time, also
     * across server instances, so two files within 10 s never start two activities.
     */
    async lockCamera(userId: string, cameraId: string) {
      const [row] = await db
        .select({ id: cameras.id, name: cameras.name, siteId: cameras.siteId })
        .from(cameras)
        .where(and(eq(cameras.userId, userId), eq(cameras.id, cameraId)))
        .for('update')
        .limit(1);
      return row;
    },

    /**
     * The activity of the camera a file at `at` belongs to: one whose files span to within `windowMs` of it
     * (files may be processed out of order, so both sides count). A clip joins only an activity without one.
     */
    async findJoinable(
      userId: string,
      cameraId: string,
      at: Date,
      windowMs: number,
      forClip: boolean,
    ): Promise<ActivityRow | undefined> {
      const [row] = await db
        .select()
        .from(activities)
        .where(
          and(
            eq(activities.userId, userId),
            eq(activities.cameraId, cameraId),
            lte(activities.occurredAt, new Date(at.getTime() + windowMs)),
            gte(activities.lastFileAt, new Date(at.getTime() - windowMs)),
            forClip ? isNull(activities.videoKey) : undefined,
          ),
        )
        .orderBy(desc(activities.occurredAt))
        .limit(1);
      return row;
    },

    async insertActivity(values: NewActivity): Promise<void> {
      await db.insert(activities).values(values);
    },

    async updateActivity(activityId: string, patch: ActivityPatch): Promise<void> {
      await db.update(activities).set(patch).where(eq(activities.id, activityId));
    },

    /** Moves a pending upload on; false when it was no longer pending (another run got there first). */
    async finishUpload(
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
    },

    /** Uses one free event; false when none is left (checked and taken in one statement). */
    async takeFreeEvent(userId: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ remainingFreeEvents: sql`${users.remainingFreeEvents} - 1` })
        .where(and(eq(users.id, userId), sql`${users.remainingFreeEvents} > 0`))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Puts the user's held uploads received since `since` back to pending; answers their ids. */
    async unholdUploads(userId: string, since: Date): Promise<string[]> {
      const rows = await db
        .update(uploads)
        .set({ status: 'pending', processedAt: null })
        .where(and(eq(uploads.userId, userId), eq(uploads.status, 'held'), gte(uploads.receivedAt, since)))
        .returning({ id: uploads.id });
      return rows.map((r) => r.id);
    },

    async bumpCounter(userId: string, day: string, reason: CounterReason): Promise<void> {
      await db
        .insert(ingestCounters)
        .values({ userId, day, reason, count: 1 })
        .onConflictDoUpdate({
          target: [ingestCounters.userId, ingestCounters.day, ingestCounters.reason],
          set: { count: sql`${ingestCounters.count} + 1` },
        });
    },
  };
}
export type ProcessingQueries = ReturnType<typeof processingQueries>;

/** Activities' and uploads' SQL. Every query a user's call reaches is scoped by that user. */
export function createActivitiesRepository(db: Db) {
  const bySubject = (subject: string) =>
    sql`${activities.userId} = (select ${users.id} from ${users} where ${users.authSubject} = ${subject})`;

  return {
    ...processingQueries(db),

    /** Runs `fn` in one transaction with the processing statements bound to it (and `tx` to send jobs). */
    transaction<T>(fn: (q: ProcessingQueries, tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(processingQueries(tx), tx));
    },

    async findUpload(uploadId: string): Promise<UploadRow | undefined> {
      const [row] = await db.select().from(uploads).where(eq(uploads.id, uploadId)).limit(1);
      return row;
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

    /**
     * The cameras of these (user, name) pairs, names compared ignoring case as the unique index does, removed
     * or not: one statement; answered in the order asked (undefined where the user has no such camera).
     */
    async camerasNamed(names: { userId: string; name: string }[]): Promise<(CameraRow | undefined)[]> {
      if (names.length === 0) return [];
      const asked = sql.join(
        names.map((n, i) => sql`(${i}::int, ${n.userId}::uuid, ${n.name}::text)`),
        sql`, `,
      );
      const rows = await db
        .select({ camera: cameras, asked: sql<number>`v.i` })
        .from(cameras)
        .innerJoin(
          sql`(values ${asked}) as v(i, user_id, name)`,
          sql`${cameras.userId} = v.user_id and lower(${cameras.name}) = lower(v.name)`,
        );
      const found: (CameraRow | undefined)[] = names.map(() => undefined);
      for (const r of rows) found[Number(r.asked)] = r.camera;
      return found;
    },

    /**
     * Registers cameras of a round in one statement; answers those inserted. A name another instance
     * registered meanwhile is skipped by the unique lower(name) index (the caller finds its row again).
     */
    async registerCameras(values: { userId: string; name: string; at: Date }[]): Promise<CameraRow[]> {
      if (values.length === 0) return [];
      return db
        .insert(cameras)
        .values(values.map((v) => ({ userId: v.userId, name: v.name, lastActivityAt: v.at })))
        .onConflictDoNothing()
        .returning();
    },

    /** Known cameras of a round come back if removed and their last activity moves on: one statement. */
    async stampCameras(values: { cameraId: string; at: Date }[]): Promise<CameraRow[]> {
      if (values.length === 0) return [];
      const stamps = sql.join(
        values.map((v) => sql`(${v.cameraId}::uuid, ${v.at.toISOString()}::timestamptz)`),
        sql`, `,
      );
      return db
        .update(cameras)
        .set({
          removedAt: null,
          lastActivityAt: sql`greatest(${cameras.lastActivityAt}, v.at)`,
          updatedAt: sql`now()`,
        })
        .from(sql`(values ${stamps}) as v(camera_id, at)`)
        .where(sql`${cameras.id} = v.camera_id`)
        .returning();
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

    /** Uploads received before `cutoff` (optionally of one status), oldest first. */
    async uploadsBefore(cutoff: Date, limit: number, status?: UploadRow['status']): Promise<UploadRow[]> {
      return db
        .select()
        .from(uploads)
        .where(
          and(lt(uploads.receivedAt, cutoff), status === undefined ? undefined : eq(uploads.status, status)),
        )
        .orderBy(uploads.receivedAt)
        .limit(limit);
    },

    /**
     * Deletes upload rows (only those still in `onlyStatus`, when given) and answers the deleted ones, whose
     * bytes the caller then removes: a row is never left pointing at bytes already gone.
     */
    async deleteUploads(ids: string[], onlyStatus?: UploadRow['status']): Promise<UploadRow[]> {
      if (ids.length === 0) return [];
      return db
        .delete(uploads)
        .where(
          and(
            inArray(uploads.id, ids),
            onlyStatus === undefined ? undefined : eq(uploads.status, onlyStatus),
          ),
        )
        .returning();
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
