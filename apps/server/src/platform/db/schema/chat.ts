import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ReplyToMessage, VideoAttachment } from '@homesitter/contract';
import { users } from './users.js';

/**
 * Chat messages (docs/product.md §3 "Chat message"), the user's and the home sitter's. History is read newest first
 * by (user_id, sent_at, seq); `seq` breaks ties between messages of the same instant.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: integer('seq').generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'agent'] }).notNull(),
    text: text('text').notNull(),
    /** When the message was written: the client's own time for a user message, the server's for the agent. */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    imageUrls: jsonb('image_urls').$type<string[]>().notNull().default([]),
    hiddenImages: jsonb('hidden_images').$type<string[]>().notNull().default([]),
    videos: jsonb('videos').$type<VideoAttachment[]>().notNull().default([]),
    sourceActivityUuids: jsonb('source_activity_uuids').$type<string[]>().notNull().default([]),
    replyToMessageId: uuid('reply_to_message_id'),
    replyToMessage: jsonb('reply_to_message').$type<ReplyToMessage>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_messages_user_time_idx').on(t.userId, t.sentAt, t.seq)],
);
