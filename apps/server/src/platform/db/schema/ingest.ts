import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** Where an upload came in. */
export const UPLOAD_SOURCES = ['ftp', 'smtp', 'http', 'stream', 'nest'] as const;
export type UploadSource = (typeof UPLOAD_SOURCES)[number];

/**
 * What a camera's maker reported about an event, beside what our analysis sees: Nest tells person, motion,
 * sound and a doorbell's chime.
 */
export const CAMERA_VERDICTS = ['person', 'motion', 'sound', 'chime'] as const;
export type CameraVerdict = (typeof CAMERA_VERDICTS)[number];

/** What an upload's bytes are, sniffed from the bytes (never from the name). */
export const MEDIA_KINDS = ['image', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * What an upload or an activity holds: a sniffed kind of media, or `none`: an event that reached us after its
 * picture was gone (a Nest event older than Google's image), recorded from what the camera's maker said.
 */
export const EVENT_MEDIA_KINDS = [...MEDIA_KINDS, 'none'] as const;
export type EventMediaKind = (typeof EVENT_MEDIA_KINDS)[number];

/**
 * pending: stored and acknowledged, waiting for its job. processed: part of an activity. dropped: deleted
 * unprocessed (private mode). held: not processed for lack of free events; deleted after 24 h unless a
 * subscription starts. failed: the media could not be read.
 */
export const UPLOAD_STATUSES = ['pending', 'processed', 'dropped', 'held', 'failed'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/**
 * One file a camera sent. The row, its bytes on storage and its processing job are committed together
 * before the camera hears "received", so an acknowledged upload survives a crash.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The camera as the upload named it; the job resolves (or registers) the camera. */
    cameraName: text('camera_name').notNull(),
    source: text('source', { enum: UPLOAD_SOURCES }).notNull(),
    /** Null for an upload without media (`media_kind` none): there are no bytes. */
    storageKey: text('storage_key'),
    originalName: text('original_name').notNull(),
    mediaKind: text('media_kind', { enum: EVENT_MEDIA_KINDS }).notNull(),
    contentType: text('content_type'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** SHA-256 of the bytes (hex), to know a file a camera sends again; null on older rows. */
    contentSha256: text('content_sha256'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the camera's maker said it saw, where it says (Nest: person, motion, sound, chime). */
    cameraVerdict: jsonb('camera_verdict').$type<CameraVerdict[]>().notNull().default([]),
    status: text('status', { enum: UPLOAD_STATUSES }).notNull().default('pending'),
    /**
     * The activity this upload is meant for, when the sender knows it (a Nest clip preview arriving after its
     * session's activity was made): it joins that activity while it exists and has no clip.
     */
    forActivityId: uuid('for_activity_id'),
    activityId: uuid('activity_id'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    index('uploads_user_received_idx').on(t.userId, t.receivedAt),
    index('uploads_status_idx').on(t.status, t.receivedAt),
    index('uploads_user_content_idx').on(t.userId, t.contentSha256),
  ],
);

/** Uploads refused or dropped, counted without keeping anything (private mode keeps "a counter only"). */
export const ingestCounters = pgTable(
  'ingest_counters',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    reason: text('reason', { enum: ['private_mode', 'refused', 'no_free_events'] }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.reason] })],
);
