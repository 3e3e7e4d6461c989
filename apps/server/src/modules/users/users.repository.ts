import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type UserPatch = Partial<Omit<typeof users.$inferInsert, 'id' | 'authSubject' | 'createdAt'>>;
/** The Stripe side of a profile (docs/billing.md), written by billing through the users module's API. */
export type BillingPatch = Pick<
  UserPatch,
  | 'stripeCustomerId'
  | 'stripeSubscriptionId'
  | 'stripeSubscriptionStatus'
  | 'stripePriceId'
  | 'stripeCurrentPeriodStart'
  | 'stripeCurrentPeriodEnd'
  | 'stripeCancelAtPeriodEnd'
  | 'stripeCanceledAt'
  | 'stripeEndedAt'
  | 'stripeRefundAmount'
  | 'stripeRefundCurrency'
  | 'freeEventsNoticeAt'
>;

/**
 * Uses one of the user's free events; false when none is left (checked and taken in one statement). The
 * processing (activities) runs it on its own transaction (`db` is then that transaction), in the commit of
 * the activity the event pays for.
 */
export async function spendFreeEvent(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ remainingFreeEvents: sql`${users.remainingFreeEvents} - 1` })
    .where(and(eq(users.id, userId), sql`${users.remainingFreeEvents} > 0`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Users' SQL. Every query is scoped by the caller's own subject or user id. */
export function createUsersRepository(db: Db) {
  // The profile lookup runs on nearly every request: prepared once, it skips rebuilding the SQL each time.
  const findBySubject = db
    .select()
    .from(users)
    .where(eq(users.authSubject, sql.placeholder('subject')))
    .limit(1)
    .prepare('users_find_by_subject');

  return {
    async findBySubject(subject: string): Promise<UserRow | undefined> {
      const [row] = await findBySubject.execute({ subject });
      return row;
    },

    /** Inserts the profile unless one exists for the subject; `undefined` when it already existed. */
    async insert(values: typeof users.$inferInsert): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values(values)
        .onConflictDoNothing({ target: users.authSubject })
        .returning();
      return row;
    },

    async update(subject: string, patch: UserPatch): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.authSubject, subject))
        .returning();
      return row;
    },

    async findById(userId: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      return row;
    },

    async findByStripeCustomer(customerId: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.stripeCustomerId, customerId)).limit(1);
      return row;
    },

    async updateBilling(userId: string, patch: BillingPatch): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      return row;
    },

    /** Stores the Stripe customer unless the user has one already; answers the one stored. */
    async setCustomerOnce(userId: string, customerId: string): Promise<string | undefined> {
      await db
        .update(users)
        .set({ stripeCustomerId: customerId, updatedAt: new Date() })
        .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)));
      const [row] = await db
        .select({ customerId: users.stripeCustomerId })
        .from(users)
        .where(eq(users.id, userId));
      return row?.customerId ?? undefined;
    },

    /** True the first time after the notice was cleared: the caller tells the user. */
    async claimFreeEventsNotice(userId: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ freeEventsNoticeAt: at })
        .where(and(eq(users.id, userId), isNull(users.freeEventsNoticeAt)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Sets the free events of the user with this email (operator); a grant clears the "told" mark. */
    async setFreeEventsByEmail(email: string, remaining: number): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({
          remainingFreeEvents: remaining,
          ...(remaining > 0 ? { freeEventsNoticeAt: null } : {}),
          updatedAt: new Date(),
        })
        .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
        .returning();
      return row;
    },

    /** Deletes the profile; every row it owns goes with it (ON DELETE CASCADE). */
    async deleteBySubject(subject: string): Promise<UserRow | undefined> {
      const [row] = await db.delete(users).where(eq(users.authSubject, subject)).returning();
      return row;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
