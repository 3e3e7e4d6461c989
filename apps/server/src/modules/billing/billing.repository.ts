import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { stripeEvents } from '../../platform/db/schema.js';

/** The webhook events already applied (billing owns `stripe_events`). */
export function createBillingRepository(db: Db) {
  return {
    /** Claims an event id; false when it was claimed (applied) before. */
    async claimEvent(id: string, type: string): Promise<boolean> {
      const rows = await db
        .insert(stripeEvents)
        .values({ id, type })
        .onConflictDoNothing({ target: stripeEvents.id })
        .returning({ id: stripeEvents.id });
      return rows.length > 0;
    },

    /** Gives the claim back when applying failed, so Stripe's retry applies it. */
    async releaseEvent(id: string): Promise<void> {
      await db.delete(stripeEvents).where(eq(stripeEvents.id, id));
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;
