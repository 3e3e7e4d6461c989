import { boolean, index, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { activities } from './activities.js';
import { memories, memoryImages } from './memories.js';
import { users } from './users.js';

/**
 * The face examples of people memories: one row per face in a memory's photo (`source` photo, removed with
 * the photo or the memory), or a face of an activity the owner confirmed ("that's Rose") or rejected
 * ("not Rose": `negative`) (`source` correction, with the activity it came from while that exists).
 * The descriptor is face-api's 128-D embedding; recognition (modules/recognition/face-match.ts) reads them
 * per user.
 */
export const memoryFaceEmbeddings = pgTable(
  'memory_face_embeddings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    memoryId: uuid('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    /** The photo the face is in; null for one learnt from a correction. */
    imageId: uuid('image_id').references(() => memoryImages.id, { onDelete: 'cascade' }),
    descriptor: real('descriptor').array().notNull(),
    negative: boolean('negative').notNull().default(false),
    source: text('source', { enum: ['photo', 'correction'] }).notNull(),
    activityId: uuid('activity_id').references(() => activities.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('memory_face_embeddings_user_idx').on(t.userId),
    index('memory_face_embeddings_memory_idx').on(t.memoryId),
    index('memory_face_embeddings_image_idx').on(t.imageId),
  ],
);
