import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import {
  activities,
  cameraUploadCredentials,
  cameras,
  sites,
  users,
  type ActivityObject,
} from '../../platform/db/schema.js';

export type CameraRow = typeof cameras.$inferSelect;
export type CameraPatch = Partial<
  Pick<
    typeof cameras.$inferInsert,
    | 'name'
    | 'siteId'
    | 'notes'
    | 'isPrivateModeEnabled'
    | 'isMuted'
    | 'onlyUnusualAlerts'
    | 'isFacialRecognitionEnabled'
    | 'facialRecognitionConsentAt'
    | 'credentials'
    | 'configurationStatus'
    | 'lastActivityAt'
    | 'removedAt'
    | 'connectionType'
    | 'connection'
    | 'streamConfig'
    | 'configurationErrorCode'
    | 'configurationStartedAt'
    | 'motionSensitivity'
    | 'streamStatus'
    | 'streamError'
    | 'snapshotKey'
    | 'snapshotAt'
  >
>;

/** A stream camera with what decides whether it is pulled: its owner's global privacy mode. */
export interface StreamCameraRow {
  camera: CameraRow;
  isGlobalPrivacyModeEnabled: boolean;
}
export type UploadCredentialsRow = typeof cameraUploadCredentials.$inferSelect;

/** PostgreSQL's unique_violation: another camera already has the name (a race the service lost). */
export { isUniqueViolation } from '../../platform/db/errors.js';

/**
 * A removed property's cameras are left without one: run by the sites repository inside the transaction that
 * removes the property (`db` is that transaction).
 */
export async function unassignSiteCameras(db: Db, userId: string, siteId: string, at: Date): Promise<void> {
  await db
    .update(cameras)
    .set({ siteId: null, updatedAt: at })
    .where(and(eq(cameras.userId, userId), eq(cameras.siteId, siteId)));
}

/** Cameras' SQL, the only writer of the `cameras` table. Every query is scoped by the caller's user id. */
/** An upload camera's newest activity picture, with what was detected in it (for its crop). */
export interface LatestThumbnail {
  key: string;
  at: Date;
  objects: ActivityObject[];
  width: number | null;
  height: number | null;
}

export function createCamerasRepository(db: Db) {
  // The owner lookup and the list run on every cameras screen: prepared once.
  const findOwner = db
    .select({ id: users.id, isFacialRecognitionEnabled: users.isFacialRecognitionEnabled })
    .from(users)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .limit(1)
    .prepare('cameras_find_owner');
  const listActive = db
    .select()
    .from(cameras)
    .where(and(eq(cameras.userId, sql.placeholder('userId')), isNull(cameras.removedAt)))
    .orderBy(asc(sql`lower(${cameras.name})`), asc(cameras.name))
    .prepare('cameras_list_active');

  const byName = (userId: string, name: string) =>
    and(eq(cameras.userId, userId), sql`lower(${cameras.name}) = lower(${name})`);

  return {
    async findOwner(subject: string) {
      const [row] = await findOwner.execute({ subject });
      return row;
    },

    /** The user's cameras that are not removed, by name ignoring case. */
    async listActive(userId: string): Promise<CameraRow[]> {
      return listActive.execute({ userId });
    },

    /**
     * The newest activity thumbnail of each of these cameras (upload cameras show it as their snapshot):
     * read from the activities' table, which this module never writes.
     */
    async latestThumbnails(cameraIds: string[]): Promise<Map<string, LatestThumbnail>> {
      if (cameraIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([activities.cameraId], {
          cameraId: activities.cameraId,
          key: activities.thumbnailKey,
          at: activities.occurredAt,
          objects: activities.objects,
          width: activities.width,
          height: activities.height,
        })
        .from(activities)
        .where(and(inArray(activities.cameraId, cameraIds), isNotNull(activities.thumbnailKey)))
        .orderBy(activities.cameraId, desc(activities.occurredAt));
      return new Map(
        rows.flatMap(({ cameraId, key, ...rest }) => (cameraId && key ? [[cameraId, { key, ...rest }]] : [])),
      );
    },

    /** The camera with this name (any case), removed or not. */
    async findByName(userId: string, name: string): Promise<CameraRow | undefined> {
      const [row] = await db.select().from(cameras).where(byName(userId, name)).limit(1);
      return row;
    },

    async insert(values: typeof cameras.$inferInsert): Promise<CameraRow> {
      const [row] = await db.insert(cameras).values(values).returning();
      if (!row) throw new Error('camera insert returned nothing');
      return row;
    },

    async update(userId: string, cameraId: string, patch: CameraPatch): Promise<CameraRow | undefined> {
      const [row] = await db
        .update(cameras)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(cameras.userId, userId), eq(cameras.id, cameraId)))
        .returning();
      return row;
    },

    /**
     * Stream cameras (RTSP/ONVIF, and those the desktop helper bridges) that are not removed, of every user or
     * of one: what the streams and helper modules look after. Internal: keyed by ids that came from rows,
     * never by a caller's input.
     */
    async listStreamCameras(filter: { userId?: string; cameraId?: string } = {}): Promise<StreamCameraRow[]> {
      const rows = await db
        .select({ camera: cameras, isGlobalPrivacyModeEnabled: users.isGlobalPrivacyModeEnabled })
        .from(cameras)
        .innerJoin(users, eq(users.id, cameras.userId))
        .where(
          and(
            sql`${cameras.connectionType} <> 'upload'`,
            isNull(cameras.removedAt),
            filter.userId ? eq(cameras.userId, filter.userId) : undefined,
            filter.cameraId ? eq(cameras.id, filter.cameraId) : undefined,
          ),
        );
      return rows;
    },

    /**
     * What the desktop helper reports of a camera it bridges: written only while the camera is the user's and
     * still bridged (`helper`), so a report racing a change of connection changes nothing.
     */
    async updateHelperCamera(
      userId: string,
      cameraId: string,
      patch: CameraPatch,
    ): Promise<CameraRow | undefined> {
      const [row] = await db
        .update(cameras)
        .set({ ...patch, updatedAt: new Date() })
        .where(
          and(
            eq(cameras.userId, userId),
            eq(cameras.id, cameraId),
            eq(cameras.connectionType, 'helper'),
            isNull(cameras.removedAt),
          ),
        )
        .returning();
      return row;
    },

    /** Internal writes of the streams module (statuses, snapshots), by camera id. */
    async updateById(cameraId: string, patch: CameraPatch): Promise<CameraRow | undefined> {
      const [row] = await db
        .update(cameras)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(cameras.id, cameraId))
        .returning();
      return row;
    },

    /**
     * The cameras of these (user, name) pairs, names compared ignoring case as the unique index does, removed
     * or not: one statement; answered in the order asked (undefined where the user has no such camera).
     */
    async findByNames(names: { userId: string; name: string }[]): Promise<(CameraRow | undefined)[]> {
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
     * Registers the cameras uploads came from, in one statement; answers those inserted. A name registered
     * meanwhile (another file, another instance) is skipped by the unique lower(name) index: the caller finds
     * its row again.
     */
    async registerArrived(values: { userId: string; name: string; at: Date }[]): Promise<CameraRow[]> {
      if (values.length === 0) return [];
      return (
        db
          .insert(cameras)
          // An upload camera is configured by its first event: it reached us.
          .values(
            values.map((v) => ({
              userId: v.userId,
              name: v.name,
              lastActivityAt: v.at,
              configurationStatus: 'configured' as const,
            })),
          )
          .onConflictDoNothing()
          .returning()
      );
    },

    /** Known cameras uploads came from come back if removed and their last activity moves on: one statement. */
    async stampArrived(values: { cameraId: string; at: Date }[]): Promise<CameraRow[]> {
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
          configurationStatus: sql`case when ${cameras.connectionType} = 'upload' then 'configured' else ${cameras.configurationStatus} end`,
          updatedAt: sql`now()`,
        })
        .from(sql`(values ${stamps}) as v(camera_id, at)`)
        .where(sql`${cameras.id} = v.camera_id`)
        .returning();
    },

    /** Whether the site is the user's and not removed. */
    async hasActiveSite(userId: string, siteId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: sites.id })
        .from(sites)
        .where(and(eq(sites.userId, userId), eq(sites.id, siteId), isNull(sites.removedAt)))
        .limit(1);
      return row !== undefined;
    },

    async findUploadCredentials(userId: string): Promise<UploadCredentialsRow | undefined> {
      const [row] = await db
        .select()
        .from(cameraUploadCredentials)
        .where(eq(cameraUploadCredentials.userId, userId))
        .limit(1);
      return row;
    },

    /** Looks a camera upload login up by its username: the ingest servers' question, before any user is known. */
    async findUploadCredentialsByUsername(username: string): Promise<UploadCredentialsRow | undefined> {
      const [row] = await db
        .select()
        .from(cameraUploadCredentials)
        .where(eq(cameraUploadCredentials.username, username))
        .limit(1);
      return row;
    },

    /** Creates the user's upload login unless one exists; `undefined` when it already did. */
    async insertUploadCredentials(
      values: typeof cameraUploadCredentials.$inferInsert,
    ): Promise<UploadCredentialsRow | undefined> {
      const [row] = await db
        .insert(cameraUploadCredentials)
        .values(values)
        .onConflictDoNothing({ target: cameraUploadCredentials.userId })
        .returning();
      return row;
    },

    async replaceUploadPassword(
      userId: string,
      passwordHash: string,
      passwordEncrypted: string,
    ): Promise<UploadCredentialsRow | undefined> {
      const [row] = await db
        .update(cameraUploadCredentials)
        .set({ passwordHash, passwordEncrypted, updatedAt: new Date() })
        .where(eq(cameraUploadCredentials.userId, userId))
        .returning();
      return row;
    },
  };
}
export type CamerasRepository = ReturnType<typeof createCamerasRepository>;
