import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { NotableMoment } from '@homesitter/contract';

/** Moments written before pictures had a focus have none; they are shown centred. */
export type StoredNotableMoment = Omit<NotableMoment, 'thumbnail_focus'> &
  Partial<Pick<NotableMoment, 'thumbnail_focus'>>;
import { users } from './users.js';

/**
 * Hourly and daily highlights, written by the highlights jobs. `siteId` is the property covered (null: the
 * cameras without one); `counts` holds activities per kind; `notableMoments` point at activities (and their
 * clips). One summary per user, property, period and start: the jobs rewrite it as the day goes on.
 */
export const activitySummaries = pgTable(
  'activity_summaries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id'),
    period: text('period', { enum: ['daily', 'hourly'] }).notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    recognisedNames: jsonb('recognised_names').$type<string[]>().notNull().default([]),
    notableMoments: jsonb('notable_moments').$type<StoredNotableMoment[]>().notNull().default([]),
    text: text('text').notNull(),
    thumbnailKey: text('thumbnail_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_summaries_user_period_idx').on(t.userId, t.periodStart),
    // Null site ids compare equal here (coalesce), so "no property" has one summary per period too.
    uniqueIndex('activity_summaries_one_per_period').on(
      t.userId,
      sql`coalesce(${t.siteId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.period,
      t.periodStart,
    ),
  ],
);
