import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
