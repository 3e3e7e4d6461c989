import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { chatMessages, users } from '../../platform/db/schema.js';

export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type NewChatMessage = Omit<typeof chatMessages.$inferInsert, 'seq' | 'createdAt'>;

/** Chat SQL. Every query is scoped by the caller's own user id. */
export function createChatRepository(db: Db) {
  return {
    async insert(values: NewChatMessage): Promise<ChatMessageRow> {
      const [row] = await db.insert(chatMessages).values(values).returning();
      if (!row) throw new Error('chat message insert returned nothing');
      return row;
    },

    /** Inserts the message and runs `then` in the same transaction (e.g. sending the job that answers it). */
    async insertThen(values: NewChatMessage, then: (row: ChatMessageRow, tx: Db) => Promise<void>) {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(chatMessages).values(values).returning();
        if (!row) throw new Error('chat message insert returned nothing');
        await then(row, tx);
        return row;
      });
    },

    /** Bulk insert (seeding, imports); rows must all belong to `userId`. */
    async insertMany(userId: string, rows: Omit<NewChatMessage, 'userId'>[]): Promise<void> {
      if (rows.length === 0) return;
      await db.insert(chatMessages).values(rows.map((r) => ({ ...r, userId })));
    },

    /** One page, newest first from the database (the service turns it into ascending order). */
    async pageNewestFirst(userId: string, page: number, pageSize: number) {
      // One row past the page says whether there is more, without counting the whole history.
      const rows = await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.userId, userId))
        .orderBy(desc(chatMessages.sentAt), desc(chatMessages.seq))
        .limit(pageSize + 1)
        .offset((page - 1) * pageSize);
      const hasMore = rows.length > pageSize;
      return { rows: hasMore ? rows.slice(0, pageSize) : rows, hasMore };
    },

    /** The operator's agent message addresses a user by email (the admin token has no user of its own). */
    async findUserIdByEmail(email: string): Promise<string | undefined> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
      return row?.id;
    },

    async updateAgentMessage(
      userId: string,
      id: string,
      patch: Partial<
        Pick<NewChatMessage, 'text' | 'imageUrls' | 'videos' | 'sourceActivityUuids' | 'sentAt'>
      >,
    ): Promise<ChatMessageRow | undefined> {
      const [row] = await db
        .update(chatMessages)
        .set(patch)
        .where(and(eq(chatMessages.userId, userId), eq(chatMessages.id, id), eq(chatMessages.role, 'agent')))
        .returning();
      return row;
    },

    async deleteAgentMessage(userId: string, id: string): Promise<void> {
      await db
        .delete(chatMessages)
        .where(and(eq(chatMessages.userId, userId), eq(chatMessages.id, id), eq(chatMessages.role, 'agent')));
    },

    async findById(userId: string, id: string): Promise<ChatMessageRow | undefined> {
      const [row] = await db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.userId, userId), eq(chatMessages.id, id)))
        .orderBy(asc(chatMessages.seq))
        .limit(1);
      return row;
    },
  };
}
export type ChatRepository = ReturnType<typeof createChatRepository>;
