import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cameras } from './cameras.js';
import { users } from './users.js';

/**
 * A user's linked Google account for Nest cameras (docs/nest.md), one row per user. Both tokens are
 * AES-256-GCM encrypted with `SECRETS_KEY`, bound to the user's id. `failed` once Google answers
 * `invalid_grant` (revoked or expired): the owner reconnects.
 */
export const nestLinks = pgTable('nest_links', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  refreshToken: text('refresh_token').notNull(),
  accessToken: text('access_token'),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
  status: text('status', { enum: ['linked', 'failed'] }).notNull(),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
  syncedAt: timestamp('synced_at', { withTimezone: true }),
});

/**
 * The `state` of a consent round trip in flight: the callback deletes its row, so a state is used once, and
 * the row says whose it is (the callback is a browser redirect without a token).
 */
export const nestLinkStates = pgTable('nest_link_states', {
  nonce: text('nonce').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** The Nest device behind each Nest camera: its SDM resource name and what it supports. */
export const nestDevices = pgTable(
  'nest_devices',
  {
    cameraId: uuid('camera_id')
      .primaryKey()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `enterprises/{project}/devices/{id}` */
    deviceName: text('device_name').notNull(),
    kind: text('kind', { enum: ['camera', 'doorbell', 'display'] }).notNull(),
    protocols: jsonb('protocols').$type<('RTSP' | 'WEB_RTC')[]>().notNull(),
    traits: jsonb('traits').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('nest_devices_user_device_unique').on(t.userId, t.deviceName)],
);

/**
 * The Nest event sessions already made into an activity (one per `eventSessionId`): a redelivered or later
 * message of the session makes no second activity and no second alert.
 */
export const nestEventSessions = pgTable(
  'nest_event_sessions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull(),
    uploadId: uuid('upload_id'),
    /** A clip preview of a later message, attached to the session's activity (once). */
    clipUploadId: uuid('clip_upload_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('nest_event_sessions_unique').on(t.userId, t.sessionId)],
);
