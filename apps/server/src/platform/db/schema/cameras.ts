import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sites } from './sites.js';
import { users } from './users.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Cameras (docs/product.md §3). The name is unique per user, ignoring case; other tables refer to a camera by its id,
 * so a rename carries its activities along. `credentials` is the camera's own login, AES-256-GCM encrypted.
 * Stream cameras (RTSP/ONVIF) also keep how to reach them (`connection`, as the owner typed it) and what
 * configuration learnt (`stream_config`: stream addresses with their login), both encrypted the same way.
 * Cameras bridged by the desktop helper (`helper`) have no `connection`; their `stream_config` holds what the
 * helper reported about them (`HelperCameraDetails`: the address without login, device, video), encrypted too.
 */
export const cameras = pgTable(
  'cameras',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    notes: text('notes'),
    isPrivateModeEnabled: boolean('is_private_mode_enabled').notNull().default(false),
    isMuted: boolean('is_muted').notNull().default(false),
    /** Alert only about events that depart from the camera's routine (once it has one). */
    onlyUnusualAlerts: boolean('only_unusual_alerts').notNull().default(false),
    isFacialRecognitionEnabled: boolean('is_facial_recognition_enabled').notNull().default(false),
    /** When the owner last turned recognition on for this camera: the consent record (who: the owner). */
    facialRecognitionConsentAt: timestamp('facial_recognition_consent_at', { withTimezone: true }),
    credentials: text('credentials'),
    configurationStatus: text('configuration_status', {
      enum: ['pending', 'configuring', 'configured', 'failed'],
    })
      .notNull()
      .default('pending'),
    connectionType: text('connection_type', { enum: ['upload', 'rtsp', 'onvif', 'helper', 'nest'] })
      .notNull()
      .default('upload'),
    connection: text('connection'),
    streamConfig: text('stream_config'),
    configurationErrorCode: text('configuration_error_code'),
    /** When configuration last started: a `configuring` older than the deadline was cut short by a crash. */
    configurationStartedAt: timestamp('configuration_started_at', { withTimezone: true }),
    motionSensitivity: integer('motion_sensitivity').notNull().default(6),
    streamStatus: text('stream_status', {
      enum: ['connecting', 'streaming', 'reconnecting', 'private', 'stopped'],
    }),
    streamError: text('stream_error'),
    /** The latest frame (stream cameras) or the newest activity's thumbnail (upload cameras): a storage key. */
    snapshotKey: text('snapshot_key'),
    snapshotAt: timestamp('snapshot_at', { withTimezone: true }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('cameras_user_name_unique').on(t.userId, sql`lower(${t.name})`),
    index('cameras_site_idx').on(t.siteId),
  ],
);

/**
 * The per-user login cameras upload with over FTP and email. The password is kept twice: scrypt-hashed for
 * the ingest servers to check, and AES-256-GCM encrypted so the owner can read it again in camera setup.
 */
export const cameraUploadCredentials = pgTable('camera_upload_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  passwordEncrypted: text('password_encrypted').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
