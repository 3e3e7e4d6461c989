import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Stripe webhook events already applied (docs/billing.md): Stripe delivers an event at least once, so its id
 * is stored with the change it made and a second delivery changes nothing.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
