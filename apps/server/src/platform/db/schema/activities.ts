import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cameras } from './cameras.js';
import { EVENT_MEDIA_KINDS, type CameraVerdict } from './ingest.js';
import { memories } from './memories.js';
import { sites } from './sites.js';
import { users } from './users.js';

/** A thing the vision engine saw in an activity. `box` is [x, y, width, height] in pixels of the media. */
export interface ActivityObject {
  kind: 'person' | 'vehicle' | 'animal';
  label: string;
  score: number;
  box?: [number, number, number, number];
  color?: string;
  /** How many alike ones were seen at once (the most in any one frame); 1 when absent. */
  count?: number;
  /**
   * People only: too small in the frame to count as someone at the place (a crowd in the background, people
   * across the street). They are spoken of as "people in the background", never counted as visitors.
   */
  background?: true;
}

/** A memory the AI recognised in an activity (spec: category, memory_uuid, name). */
export interface RecognisedMemory {
  category: 'people' | 'vehicles' | 'animals';
  memory_uuid: string;
  name: string;
  /** Face distance for people, so corrections and audits can see how sure it was. */
  distance?: number;
}

/** The part of the local day the routine compares an event with (docs/assistant.md, Unusual events). */
export type DayPart = 'night' | 'morning' | 'afternoon' | 'evening';

/**
 * How an event compares with its camera's routine of the last weeks. `unusual` null: it fits. Kept on the
 * activity, so the alert, the highlights and the chat say the same thing and can say it in either language.
 */
export interface RoutineVerdict {
  unusual: {
    /** `never`: nothing of the kind at this time of day; `weekend`/`weekday`: not on such days; `stranger`: only people you know. */
    rule: 'never' | 'weekend' | 'weekday' | 'stranger' | 'away';
    kind: 'person' | 'vehicle' | 'animal';
    part: DayPart;
    /** How many days of history the judgement rests on (at most the routine's window). */
    days: number;
    /** `away`: the other property where people the household knows were seen just before. */
    elsewhere?: string;
  } | null;
}

/**
 * How long an activity recorded in amnesia mode lives: long enough for its alert to be seen, and purged by
 * the hourly job within 24 h of the event.
 */
export const EPHEMERAL_ACTIVITY_HOURS = 23;

/**
 * A motion event: one or more uploads of one camera within 10 s. Media keys point into object storage;
 * clients only see signed URLs. The AI fields stay empty until the AI has looked at it.
 */
export const activities = pgTable(
  'activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cameraId: uuid('camera_id')
      .notNull()
      .references(() => cameras.id, { onDelete: 'cascade' }),
    /** The camera's name when the event happened (a rename updates it; see `camera.renamed`). */
    cameraName: text('camera_name').notNull(),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'set null' }),
    /** The camera's upload time of the first file. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The last file's time; files of the camera until 10 s after it join this activity. */
    lastFileAt: timestamp('last_file_at', { withTimezone: true }).notNull(),
    /** `none`: the event came without a picture (docs/nest.md); only the camera maker's verdict is known. */
    mediaKind: text('media_kind', { enum: EVENT_MEDIA_KINDS }).notNull(),
    thumbnailKey: text('thumbnail_key'),
    videoKey: text('video_key'),
    /** The HLS playlist; its segments live under the same key prefix. */
    hlsKey: text('hls_key'),
    /** Every original snapshot of the event, first to last, kept as the camera sent it (full size). */
    imageKeys: jsonb('image_keys').$type<string[]>().notNull().default([]),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: real('duration_seconds'),
    objects: jsonb('objects').$type<ActivityObject[]>().notNull().default([]),
    recognised: jsonb('recognised').$type<RecognisedMemory[]>().notNull().default([]),
    /** One sentence in English, and in the user's preferred language when that is not English. */
    description: text('description'),
    /** The camera maker's own verdict (uploads' `camera_verdict`, all files together), kept beside ours. */
    cameraVerdict: jsonb('camera_verdict').$type<CameraVerdict[]>().notNull().default([]),
    descriptionLocalized: text('description_localized'),
    analysedAt: timestamp('analysed_at', { withTimezone: true }),
    /** The camera's routine's verdict on this event; null while too little history was there to judge. */
    routine: jsonb('routine').$type<RoutineVerdict>(),
    /** The agent chat message that alerted the user about this activity (or the one it was coalesced into). */
    alertMessageId: uuid('alert_message_id'),
    /** The first activity of the alert this one joined (events of a camera within 60 s share one alert). */
    coalescedActivityId: uuid('coalesced_activity_id'),
    /**
     * Set when the activity was recorded while the owner's amnesia mode was on: it exists only for its alert,
     * is left out of history, search and highlights, and is purged (row, media, alert message) at this time.
     */
    ephemeralUntil: timestamp('ephemeral_until', { withTimezone: true }),
    /** The media the stored AI fields were computed from, so a rerun for unchanged media does not look again. */
    analysedMedia: text('analysed_media'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activities_user_occurred_idx').on(t.userId, t.occurredAt.desc()),
    index('activities_camera_occurred_idx').on(t.cameraId, t.occurredAt.desc()),
    index('activities_occurred_idx').on(t.occurredAt),
    index('activities_ephemeral_idx')
      .on(t.ephemeralUntil)
      .where(sql`${t.ephemeralUntil} is not null`),
  ],
);

/**
 * The faces the AI found in an activity, one row per person (faces of the same person across a clip's frames
 * are merged). The descriptor is face-api's 128-D embedding, kept so a correction ("that's Rose", "not Rose")
 * can teach the recogniser from this very face. Never written while the owner's amnesia mode is on.
 */
export const activityFaces = pgTable(
  'activity_faces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    activityId: uuid('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** [x, y, width, height] in pixels of the frame it was found in. */
    box: jsonb('box').$type<[number, number, number, number]>().notNull(),
    descriptor: real('descriptor').array().notNull(),
    /** The person memory it was recognised as (or confirmed to be); null for an unknown face. */
    memoryId: uuid('memory_id').references(() => memories.id, { onDelete: 'set null' }),
    /** Euclidean distance to that memory's nearest embedding when it was recognised. */
    distance: real('distance'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_faces_activity_idx').on(t.activityId),
    index('activity_faces_user_idx').on(t.userId),
  ],
);
