import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { nestDevices, nestEventSessions, nestLinkStates, nestLinks } from '../../platform/db/schema.js';

export type NestLinkRow = typeof nestLinks.$inferSelect;
export type NestDeviceRow = typeof nestDevices.$inferSelect;

/** Nest's SQL, the only writer of `nest_links`, `nest_link_states` and `nest_devices`. */
export function createNestRepository(db: Db) {
  return {
    async insertState(nonce: string, userId: string, expiresAt: Date): Promise<void> {
      await db.insert(nestLinkStates).values({ nonce, userId, expiresAt });
    },

    /** Uses a state up: answers its owner if it existed and had not expired; it is gone either way. */
    async takeState(nonce: string, at: Date): Promise<string | undefined> {
      const [row] = await db.delete(nestLinkStates).where(eq(nestLinkStates.nonce, nonce)).returning();
      return row && row.expiresAt > at ? row.userId : undefined;
    },

    async purgeStates(at: Date): Promise<void> {
      await db.delete(nestLinkStates).where(lt(nestLinkStates.expiresAt, at));
    },

    async findLink(userId: string): Promise<NestLinkRow | undefined> {
      const [row] = await db.select().from(nestLinks).where(eq(nestLinks.userId, userId)).limit(1);
      return row;
    },

    async listLinks(): Promise<NestLinkRow[]> {
      return db.select().from(nestLinks).where(eq(nestLinks.status, 'linked'));
    },

    /** A new consent replaces what was stored: a reconnect heals a failed link. */
    async saveLink(values: {
      userId: string;
      refreshToken: string;
      accessToken: string;
      accessTokenExpiresAt: Date;
      linkedAt: Date;
    }): Promise<void> {
      await db
        .insert(nestLinks)
        .values({ ...values, status: 'linked' })
        .onConflictDoUpdate({ target: nestLinks.userId, set: { ...values, status: 'linked' } });
    },

    async saveAccessToken(userId: string, accessToken: string, expiresAt: Date): Promise<void> {
      await db
        .update(nestLinks)
        .set({ accessToken, accessTokenExpiresAt: expiresAt })
        .where(eq(nestLinks.userId, userId));
    },

    /** Answers whether the link was linked until now (the owner is told once). */
    async markFailed(userId: string): Promise<boolean> {
      const rows = await db
        .update(nestLinks)
        .set({ status: 'failed', accessToken: null, accessTokenExpiresAt: null })
        .where(and(eq(nestLinks.userId, userId), eq(nestLinks.status, 'linked')))
        .returning({ userId: nestLinks.userId });
      return rows.length > 0;
    },

    async markSynced(userId: string, at: Date): Promise<void> {
      await db.update(nestLinks).set({ syncedAt: at }).where(eq(nestLinks.userId, userId));
    },

    async deleteLink(userId: string): Promise<NestLinkRow | undefined> {
      const [row] = await db.delete(nestLinks).where(eq(nestLinks.userId, userId)).returning();
      return row;
    },

    async listDevices(userId: string): Promise<NestDeviceRow[]> {
      return db.select().from(nestDevices).where(eq(nestDevices.userId, userId));
    },

    async insertDevice(values: typeof nestDevices.$inferInsert): Promise<void> {
      await db
        .insert(nestDevices)
        .values(values)
        .onConflictDoUpdate({
          target: nestDevices.cameraId,
          set: {
            deviceName: values.deviceName,
            kind: values.kind,
            protocols: values.protocols,
            traits: values.traits,
          },
        });
    },

    async updateDevice(cameraId: string, patch: Pick<NestDeviceRow, 'kind' | 'protocols' | 'traits'>) {
      await db.update(nestDevices).set(patch).where(eq(nestDevices.cameraId, cameraId));
    },

    async deleteDevice(cameraId: string): Promise<void> {
      await db.delete(nestDevices).where(eq(nestDevices.cameraId, cameraId));
    },

    /** The Nest device a camera was made of, if it is one. */
    async deviceOfCamera(cameraId: string): Promise<NestDeviceRow | undefined> {
      const [row] = await db.select().from(nestDevices).where(eq(nestDevices.cameraId, cameraId)).limit(1);
      return row;
    },

    /** Every linked user's row of this device (two accounts may share a home). */
    async findDevices(deviceName: string): Promise<NestDeviceRow[]> {
      return db.select().from(nestDevices).where(eq(nestDevices.deviceName, deviceName));
    },

    /**
     * The event session as recorded: the upload its first message made (null: none was made, by a version
     * that made no activity of a late event) and the clip preview a later message attached.
     */
    async findSession(
      userId: string,
      sessionId: string,
    ): Promise<{ uploadId: string | null; clipUploadId: string | null } | undefined> {
      const [row] = await db
        .select({ uploadId: nestEventSessions.uploadId, clipUploadId: nestEventSessions.clipUploadId })
        .from(nestEventSessions)
        .where(and(eq(nestEventSessions.userId, userId), eq(nestEventSessions.sessionId, sessionId)))
        .limit(1);
      return row;
    },

    async recordSession(userId: string, sessionId: string, uploadId: string): Promise<void> {
      await db.insert(nestEventSessions).values({ userId, sessionId, uploadId }).onConflictDoNothing();
    },

    /** The clip preview a later message of the session brought, attached to its activity (once). */
    async recordSessionClip(userId: string, sessionId: string, clipUploadId: string): Promise<void> {
      await db
        .update(nestEventSessions)
        .set({ clipUploadId })
        .where(and(eq(nestEventSessions.userId, userId), eq(nestEventSessions.sessionId, sessionId)));
    },

    async deleteDevices(userId: string): Promise<void> {
      await db.delete(nestDevices).where(eq(nestDevices.userId, userId));
    },
  };
}
export type NestRepository = ReturnType<typeof createNestRepository>;
