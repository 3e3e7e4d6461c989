import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Accounts of the built-in identity provider (email + password). External issuers have none. */
export const identities = pgTable('identities', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  emailVerified: boolean('email_verified').notNull().default(false),
  phone: text('phone'),
  language: text('language').notNull().default('en'),
  verificationSentAt: timestamp('verification_sent_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Identities of an external issuer (`AUTH_JWKS_URL`) whose account was deleted, kept so the issuer's tokens
 * from a sign-in before the deletion cannot bring it back. Only a SHA-256 of issuer and subject is kept.
 * (Our own provider's identities are deleted outright; their tokens then name no identity.)
 */
export const deletedIdentities = pgTable('deleted_identities', {
  identityHash: text('identity_hash').primaryKey(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull(),
});

/** Refresh tokens, stored as SHA-256 hashes. A family is one sign-in; rotation keeps the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identityId: text('identity_id')
      .notNull()
      .references(() => identities.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_identity_idx').on(t.identityId),
  ],
);

/** Single-use mailed codes (email verification, password reset), stored as SHA-256 hashes. */
export const authCodes = pgTable(
  'auth_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identityId: text('identity_id')
      .notNull()
      .references(() => identities.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    codeHash: text('code_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('auth_codes_identity_idx').on(t.identityId)],
);

/** The product's user profile (spec §3). `authSubject` is the token's `sub` (firebase_user_id). */
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
  /** Null until the user sets it; then derived from notifications_status (spec §3). */
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

export const pushTokens = pgTable(
  'push_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    platform: text('platform', { enum: ['ios', 'android', 'web'] }).notNull(),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('push_tokens_user_idx').on(t.userId)],
);

export const waitlist = pgTable('waitlist', {
  email: text('email').primaryKey(),
  createdAt: createdAt(),
});

/** Runtime switches an operator changes without a restart (e.g. sign-up on/off). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});
export * from './schema/cameras.js';
export * from './schema/chat.js';
export * from './schema/memories.js';
export * from './schema/activities.js';
export * from './schema/ai.js';
export * from './schema/helpers.js';
export * from './schema/billing.js';
export * from './schema/recurring-faces.js';
export * from './schema/watches.js';
