import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';
import { sites } from './sites.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Memories (docs/product.md §3): people, vehicles, animals and other notes the home sitter knows. One table, the
 * category's own fields nullable; `expires_at` set makes a short-term memory (hidden once it passes, then
 * purged), null a long-term one.
 */
export const memories = pgTable(
  'memories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category', { enum: ['people', 'vehicles', 'animals', 'other'] }).notNull(),
    /** people and animals */
    name: text('name'),
    /** vehicles */
    owner: text('owner'),
    make: text('make'),
    model: text('model'),
    year: integer('year'),
    color: text('color'),
    /** animals */
    species: text('species'),
    /** other */
    text: text('text'),
    notes: text('notes'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('memories_user_idx').on(t.userId, t.createdAt),
    index('memories_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
  ],
);

/** Photos of a memory. The files live in object storage under `storage_key` and `thumb_key`. */
export const memoryImages = pgTable(
  'memory_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memoryId: uuid('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    thumbKey: text('thumb_key').notNull(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('memory_images_memory_idx').on(t.memoryId), index('memory_images_user_idx').on(t.userId)],
);

/** Which properties (sites) a memory belongs to. */
export const memorySites = pgTable(
  'memory_sites',
  {
    memoryId: uuid('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.memoryId, t.siteId] }),
    index('memory_sites_user_idx').on(t.userId),
    index('memory_sites_site_idx').on(t.siteId),
  ],
);
