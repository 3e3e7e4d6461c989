import { z } from 'zod';
import {
  ACTIVITY_SUMMARY_PERIODS,
  CHAT_MESSAGE_MAX_ATTACHMENTS,
  CHAT_MESSAGE_MAX_LENGTH,
} from './chat.constants.js';
import {
  CLIENT_DATE_RANGE,
  clientDate,
  multiLineText,
  pictureFocusSchema,
  singleLineText,
} from './common.js';
import { CHAT_HISTORY_MAX_PAGE_SIZE, CHAT_HISTORY_PAGE_SIZE } from './constants.js';

const isoDateTime = clientDate(
  'date_time_utc',
  z.iso.datetime({
    offset: true,
    message: 'Use an ISO 8601 date-time, e.g. 2025-01-31T08:00:00Z',
  }),
);

export const chatRoleSchema = z.enum(['user', 'agent']);
export type ChatRole = z.infer<typeof chatRoleSchema>;

/** How a text field is checked: as stored and sent (as is), or as a client sends it (no control characters). */
type TextField = (label: string, base: z.ZodString) => z.ZodString;
const asIs: TextField = (_label, base) => base;

const videoAttachmentShape = (line: TextField, lines: TextField) => ({
  video_url: line('video_url', z.string().max(2_048)).nullish(),
  url: line('url', z.string().max(2_048)).nullish(),
  hls_url: line('hls_url', z.string().max(2_048)).nullish(),
  activity_uuid: line('activity_uuid', z.string().max(64)).nullish(),
  camera_name: line('camera_name', z.string().max(200)).nullish(),
  date_time_utc: line('date_time_utc', z.string().max(40)).nullish(),
  activity_description: lines('activity_description', z.string().max(4_000)).nullish(),
  activity_description_in_preferred_language: lines(
    'activity_description_in_preferred_language',
    z.string().max(4_000),
  ).nullish(),
  aspectRatio: z.number().positive().nullish(),
  metaWidth: z.number().int().nonnegative().nullish(),
  metaHeight: z.number().int().nonnegative().nullish(),
  coalesced_activity_uuid: line('coalesced_activity_uuid', z.string().max(64)).nullish(),
  urn: line('urn', z.string().max(500)).nullish(),
  thumbnail_image_url: line('thumbnail_image_url', z.string().max(2_048)).nullish(),
  focus: pictureFocusSchema
    .nullish()
    .describe('Where a cover crop of the picture or poster keeps what was detected'),
});

/** docs/product.md §3 "Video attachment": a clip of an activity, shown inline in a message. */
export const videoAttachmentSchema = z.object(videoAttachmentShape(asIs, asIs));
export type VideoAttachment = z.infer<typeof videoAttachmentSchema>;

const replyToMessageShape = (line: TextField, lines: TextField) => ({
  message_uuid: line('message_uuid', z.string().max(64)),
  text: lines('text', z.string().max(CHAT_MESSAGE_MAX_LENGTH)),
  role: chatRoleSchema,
});

/** The quoted message a reply points at. */
export const replyToMessageSchema = z.object(replyToMessageShape(asIs, asIs));
export type ReplyToMessage = z.infer<typeof replyToMessageSchema>;

/** docs/product.md §3 "Chat message", as the server stores and sends it. */
export const chatMessageSchema = z.object({
  message_uuid: z.string(),
  date_time_utc: z.string(),
  role: chatRoleSchema,
  text: z.string(),
  image_urls: z.array(z.string()),
  hidden_images: z.array(z.string()),
  videos: z.array(videoAttachmentSchema),
  source_activity_uuid_list: z.array(z.string()),
  reply_to_message_uuid: z.string().nullable(),
  reply_to_message: replyToMessageSchema.nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** POST /api/users/messages. */
export const sendMessageRequestSchema = z.strictObject({
  text: multiLineText(
    'text',
    z
      .string({ message: 'text is required' })
      .trim()
      .min(1, 'The message is empty')
      .max(CHAT_MESSAGE_MAX_LENGTH, `A message is at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
  ),
  date_time_utc: isoDateTime.optional(),
  images: z
    .array(singleLineText('images', z.string().max(2_048)))
    .max(CHAT_MESSAGE_MAX_ATTACHMENTS, `At most ${CHAT_MESSAGE_MAX_ATTACHMENTS} images per message`)
    .default([]),
  videos: z
    .array(z.strictObject(videoAttachmentShape(singleLineText, multiLineText)))
    .max(CHAT_MESSAGE_MAX_ATTACHMENTS, `At most ${CHAT_MESSAGE_MAX_ATTACHMENTS} videos per message`)
    .default([]),
  reply_to_message_uuid: singleLineText('reply_to_message_uuid', z.string().max(64)).nullish(),
  reply_to_message: z.strictObject(replyToMessageShape(singleLineText, multiLineText)).nullish(),
});
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>;

/** GET /api/users/conversation-history: page 1 is the newest messages. */
export const conversationHistoryQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1, 'page starts at 1').max(1_000_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, 'pageSize is at least 1')
    .max(CHAT_HISTORY_MAX_PAGE_SIZE, `pageSize is at most ${CHAT_HISTORY_MAX_PAGE_SIZE}`)
    .default(CHAT_HISTORY_PAGE_SIZE),
});

/** A moment worth seeing in a summary: the activity it comes from and, when there is one, its clip. */
export const notableMomentSchema = z.object({
  activity_uuid: z.string(),
  date_time_utc: z.string(),
  camera_name: z.string().nullable(),
  description: z.string(),
  thumbnail_image_url: z.string().nullable(),
  thumbnail_focus: pictureFocusSchema.describe('Where a cover crop of the thumbnail keeps what was detected'),
  clip_url: z.string().nullable(),
  hls_url: z.string().nullable(),
  is_unusual: z
    .boolean()
    .optional()
    .describe("Whether the event departs from its camera's routine (such moments come first)"),
  unusual_reason: z
    .string()
    .nullable()
    .optional()
    .describe("Why it is unusual, in one sentence in the user's language"),
});
export type NotableMoment = z.infer<typeof notableMomentSchema>;

/** Hourly and daily highlights the home sitter writes (docs/product.md §1; structure ours, §3 does not show it). */
export const activitySummarySchema = z.object({
  summary_uuid: z.string(),
  /** The property it covers; null covers every camera. */
  site_uuid: z.string().nullable(),
  period: z.enum(ACTIVITY_SUMMARY_PERIODS),
  period_start: z.string(),
  period_end: z.string(),
  /** Activities per kind, e.g. `{ "person": 4, "vehicle": 1 }`. */
  counts: z.record(z.string(), z.number().int()),
  recognised_names: z.array(z.string()),
  notable_moments: z.array(notableMomentSchema),
  text: z.string(),
  thumbnail_image_url: z.string().nullable(),
  thumbnail_focus: pictureFocusSchema.describe('Where a cover crop of the thumbnail keeps what was detected'),
  created_at: z.string(),
});
export type ActivitySummary = z.infer<typeof activitySummarySchema>;

/** The days `GET activity-summaries` answers for: those of every other date a client sends. */
export const SUMMARY_DATE_MIN = CLIENT_DATE_RANGE.from;
export const SUMMARY_DATE_MAX = CLIENT_DATE_RANGE.until;

export const activitySummariesQuerySchema = z.strictObject({
  date: z
    .string({ message: 'date is required (YYYY-MM-DD)' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .refine(
      (d) =>
        !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      {
        message: 'date is not a calendar day',
      },
    )
    // Highlights exist only for days the product can have seen; beyond, dates stop being timestamps.
    .refine((d) => d >= SUMMARY_DATE_MIN && d <= SUMMARY_DATE_MAX, {
      message: `date must be between ${SUMMARY_DATE_MIN} and ${SUMMARY_DATE_MAX}`,
    }),
});
