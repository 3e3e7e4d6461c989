import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * The link of a user's desktop helpers to the server (docs/stream-cameras.md, "Cameras bridged by the desktop
 * helper"), one row per user: whether one is connected now, which version was heard from last, and when. The
 * instance that holds the helpers' sockets writes it; any instance answers `GET /api/users/helper` from it.
 */
export const helperLinks = pgTable('helper_links', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  connected: boolean('connected').notNull().default(false),
  version: text('version'),
  /** Refreshed while connected (every ping the helper answers): a crashed instance's "connected" goes stale. */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
});
