import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** The product's user profile (docs/product.md §3). `authSubject` is the token's `sub` (firebase_user_id). */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  authSubject: text('auth_subject').notNull().unique(),
  email: text('email').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  phoneNumber: text('phone_number'),
  timezone: text('timezone'),
  preferredLanguage: text('preferred_language').notNull().default('en'),
  isGlobalPrivacyModeEnabled: boolean('is_global_privacy_mode_enabled').notNull().default(false),
  isFacialRecognitionEnabled: boolean('is_facial_recognition_enabled').notNull().default(true),
  facialRecognitionConsentAt: timestamp('facial_recognition_consent_at', { withTimezone: true }),
  isAmnesiaModeEnabled: boolean('is_amnesia_mode_enabled').notNull().default(false),
  notificationsStatus: text('notifications_status', { enum: ['ALL_ENABLED', 'ALL_DISABLED'] })
    .notNull()
    .default('ALL_ENABLED'),
  /** Null until the user sets it; then derived from notifications_status (docs/product.md §3). */
  notificationPreferences: jsonb('notification_preferences').$type<{
    push_enabled: boolean;
    sms_mms_enabled: boolean;
  }>(),
  remainingFreeEvents: integer('remaining_free_events').notNull(),
  stripeCustomerId: text('stripe_customer_id'),
  stripeSubscriptionId: text('stripe_subscription_id'),
  stripeSubscriptionStatus: text('stripe_subscription_status'),
  /** The subscription as Stripe last told it (docs/billing.md); every date and amount is Stripe's. */
  stripePriceId: text('stripe_price_id'),
  stripeCurrentPeriodStart: timestamp('stripe_current_period_start', { withTimezone: true }),
  stripeCurrentPeriodEnd: timestamp('stripe_current_period_end', { withTimezone: true }),
  stripeCancelAtPeriodEnd: boolean('stripe_cancel_at_period_end').notNull().default(false),
  stripeCanceledAt: timestamp('stripe_canceled_at', { withTimezone: true }),
  stripeEndedAt: timestamp('stripe_ended_at', { withTimezone: true }),
  /** What Stripe refunded when the subscription was cancelled (minor unit). */
  stripeRefundAmount: integer('stripe_refund_amount'),
  stripeRefundCurrency: text('stripe_refund_currency'),
  /** When the user was told their free events ran out; cleared when a subscription starts or events are granted. */
  freeEventsNoticeAt: timestamp('free_events_notice_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
