import { index, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';
import { memories } from './memories.js';

/**
 * Unknown faces that kept coming back (modules/recurring-faces/recurring-faces.*): one row per group offered in
 * the chat ("Someone I don't know has been here 4 times this week — do you know them?"). The row is what
 * stops a group being offered twice: `centroid` (the mean of its face descriptors) and `face_ids` (the
 * `activity_faces` it was made of) let a later, grown group be recognised as the same one. `photo_keys` are
 * the face crops shown with the offer; they are deleted when the offer is answered. A row goes with the
 * account, and the daily job purges rows whose last sighting is older than RETENTION_DAYS (their activities,
 * and so the faces, are gone by then).
 */
export const recurringFaces = pgTable(
  'recurring_faces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['offered', 'named', 'dismissed'] })
      .notNull()
      .default('offered'),
    /** The chat message that offered the group (replies to it name or dismiss it). */
    messageId: uuid('message_id'),
    centroid: real('centroid').array().notNull(),
    faceIds: jsonb('face_ids').$type<string[]>().notNull().default([]),
    photoKeys: jsonb('photo_keys').$type<string[]>().notNull().default([]),
    visits: integer('visits').notNull(),
    days: integer('days').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** The people memory made when the owner named the group. */
    memoryId: uuid('memory_id').references(() => memories.id, { onDelete: 'set null' }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('recurring_faces_user_idx').on(t.userId),
    index('recurring_faces_message_idx').on(t.messageId),
  ],
);
