import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * Watch requests (modules/watches/): "tell me when a car arrives in the driveway in the next two hours". One
 * row per request, owned by the watches module and read only by user id. The subject is kinds, detector
 * labels and memory ids (empty: anything worth an alert); the place is camera ids or property ids (empty: all
 * of the user's cameras). A row is active from `starts_at` until `ends_at` unless ended earlier: `matched`
 * (a once-watch that alerted; `matched_activity_id` says by which event, so a rerun of that event's analysis
 * finds it again), `expired` (the `watches.expire` job) or `cancelled` (in the chat). The user's own words and
 * language are kept to say it back. Rows go with the account.
 */
export const watches = pgTable(
  'watches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kinds: jsonb('kinds').$type<('person' | 'vehicle' | 'animal')[]>().notNull().default([]),
    labels: jsonb('labels').$type<string[]>().notNull().default([]),
    memoryIds: jsonb('memory_ids').$type<string[]>().notNull().default([]),
    cameraIds: jsonb('camera_ids').$type<string[]>().notNull().default([]),
    siteIds: jsonb('site_ids').$type<string[]>().notNull().default([]),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    repeat: text('repeat', { enum: ['once', 'every_time'] }).notNull(),
    /** `sms`: "text me"; `usual`: the user's alert channels. */
    channel: text('channel', { enum: ['sms', 'usual'] }).notNull(),
    text: text('text').notNull(),
    language: text('language', { enum: ['en', 'de'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: ['matched', 'expired', 'cancelled'] }),
    matchedActivityId: uuid('matched_activity_id'),
  },
  (t) => [index('watches_user_idx').on(t.userId, t.endedAt), index('watches_ends_idx').on(t.endsAt)],
);
