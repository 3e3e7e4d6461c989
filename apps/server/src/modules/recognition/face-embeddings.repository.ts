import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, memories, memoryFaceEmbeddings, memoryImages } from '../../platform/db/schema.js';
import type { FaceExample } from './face-match.js';

/** Face examples' SQL. Every query is scoped by the caller's user id; another user's rows are simply absent. */
export function createFaceEmbeddingsRepository(db: Db) {
  const livePeople = (userId: string, now: Date) =>
    and(
      eq(memories.userId, userId),
      eq(memories.category, 'people'),
      or(isNull(memories.expiresAt), gt(memories.expiresAt, now)),
    );

  return {
    /**
     * Replaces the faces of one photo of a people memory. Nothing is stored when the photo is gone by now
     * (removed while its faces were being found): answers `false` then. The photo's row is locked while the
     * faces go in, so a removal waits and its cascade takes them with it.
     */
    async replaceForImage(
      userId: string,
      memoryId: string,
      imageId: string,
      descriptors: number[][],
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [image] = await tx
          .select({ id: memoryImages.id })
          .from(memoryImages)
          .innerJoin(memories, eq(memories.id, memoryImages.memoryId))
          .where(
            and(
              eq(memoryImages.id, imageId),
              eq(memoryImages.userId, userId),
              eq(memoryImages.memoryId, memoryId),
              eq(memories.category, 'people'),
            ),
          )
          .for('share', { of: memoryImages });
        if (!image) return false;
        await tx
          .delete(memoryFaceEmbeddings)
          .where(and(eq(memoryFaceEmbeddings.userId, userId), eq(memoryFaceEmbeddings.imageId, imageId)));
        if (descriptors.length > 0) {
          await tx.insert(memoryFaceEmbeddings).values(
            descriptors.map((descriptor) => ({
              userId,
              memoryId,
              imageId,
              descriptor,
              source: 'photo' as const,
            })),
          );
        }
        return true;
      });
    },

    async deleteForImage(userId: string, imageId: string): Promise<number> {
      const gone = await db
        .delete(memoryFaceEmbeddings)
        .where(and(eq(memoryFaceEmbeddings.userId, userId), eq(memoryFaceEmbeddings.imageId, imageId)))
        .returning({ id: memoryFaceEmbeddings.id });
      return gone.length;
    },

    /** Whether the memory is one of the user's people memories that has not expired. */
    async isLivePerson(userId: string, memoryId: string, now: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: memories.id })
        .from(memories)
        .where(and(eq(memories.id, memoryId), livePeople(userId, now)));
      return Boolean(row);
    },

    async ownsActivity(userId: string, activityId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: activities.id })
        .from(activities)
        .where(and(eq(activities.id, activityId), eq(activities.userId, userId)));
      return Boolean(row);
    },

    async addCorrection(
      userId: string,
      memoryId: string,
      descriptor: number[],
      options: { negative: boolean; activityId: string | null },
    ): Promise<void> {
      await db.insert(memoryFaceEmbeddings).values({
        userId,
        memoryId,
        descriptor,
        negative: options.negative,
        activityId: options.activityId,
        source: 'correction',
      });
    },

    /** Every face example of the user's live people memories, with the memory's name. */
    async listForUser(userId: string, now: Date): Promise<FaceExample[]> {
      const rows = await db
        .select({
          memoryId: memoryFaceEmbeddings.memoryId,
          name: memories.name,
          descriptor: memoryFaceEmbeddings.descriptor,
          negative: memoryFaceEmbeddings.negative,
        })
        .from(memoryFaceEmbeddings)
        .innerJoin(memories, eq(memories.id, memoryFaceEmbeddings.memoryId))
        .where(and(eq(memoryFaceEmbeddings.userId, userId), livePeople(userId, now)))
        .orderBy(asc(memoryFaceEmbeddings.createdAt), asc(memoryFaceEmbeddings.id));
      return rows.map((r) => ({ ...r, name: r.name ?? '' }));
    },
  };
}
export type FaceEmbeddingsRepository = ReturnType<typeof createFaceEmbeddingsRepository>;
