import { z } from 'zod';
import {
  ACTIVITIES_MAX_PAGE_SIZE,
  ACTIVITIES_PAGE_SIZE,
  ACTIVITY_MEDIA_KINDS,
  ACTIVITY_OBJECT_KINDS,
  ACTIVITY_PROCESSING_STATUSES,
} from './activities.runtime.js';
import { recognisedMemorySchema } from './ai.js';
import { CAMERA_NAME_MAX } from './cameras.runtime.js';
import { clientDate, pictureFocusSchema, singleLineText } from './common.js';
import { paginationSchema } from './envelope.js';

const isoDateTime = (name: string) =>
  clientDate(
    name,
    z.iso.datetime({
      offset: true,
      message: `${name} must be an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z`,
    }),
  );

export const activityObjectSchema = z.object({
  kind: z.enum(ACTIVITY_OBJECT_KINDS),
  label: z.string().describe('What it is, e.g. "person", "car", "dog"'),
  score: z.number().min(0).max(1).describe('How sure the vision engine is, 0 to 1'),
});
export type ActivityObject = z.infer<typeof activityObjectSchema>;

/**
 * A motion event of one camera: the files it sent within 10 s, with signed, expiring media URLs. The AI
 * fields (objects, recognised memories, descriptions) are empty until the AI has looked at it.
 */
export const activitySchema = z.object({
  activity_uuid: z.string(),
  camera_name: z.string(),
  site_uuid: z.string().nullable().describe("The camera's property when the event happened"),
  date_time_utc: z.string().describe("The camera's upload time of the event's first file (ISO, UTC)"),
  media_kind: z.enum(ACTIVITY_MEDIA_KINDS),
  thumbnail_image_url: z.string().nullable().describe('Poster of the clip, or thumbnail of the first image'),
  video_url: z.string().nullable().describe('The clip as the camera sent it (download)'),
  hls_url: z.string().nullable().describe('HLS playlist (fMP4, H.264) to stream the clip'),
  image_urls: z.array(z.string()).describe('The snapshots of the event, full size, first to last'),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  aspect_ratio: z.number().nullable().describe('width / height'),
  focus: pictureFocusSchema.describe('Where a cover crop of the thumbnail keeps what was detected'),
  duration_seconds: z.number().nullable(),
  processing_status: z
    .enum(ACTIVITY_PROCESSING_STATUSES)
    .describe(
      "'unavailable' when the server could not run ffmpeg for the clip: it has no poster and no HLS, and `video_url` plays it as the camera sent it",
    ),
  objects: z.array(activityObjectSchema),
  recognised_memories: z.array(recognisedMemorySchema),
  activity_description: z.string().nullable(),
  activity_description_in_preferred_language: z.string().nullable(),
});
export type Activity = z.infer<typeof activitySchema>;

/** GET /api/users/activities: newest first; every filter optional. */
export const listActivitiesQuerySchema = z
  .strictObject({
    camera_name: singleLineText(
      'camera_name',
      z
        .string()
        .trim()
        .min(1, 'camera_name is empty')
        .max(CAMERA_NAME_MAX, `camera_name is at most ${CAMERA_NAME_MAX} characters`),
    ).optional(),
    site_uuid: z.uuid('site_uuid must be a UUID').optional(),
    from: isoDateTime('from').optional().describe('Earliest event time, inclusive'),
    to: isoDateTime('to').optional().describe('Latest event time, inclusive'),
    page: z.coerce
      .number({ message: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page starts at 1')
      .max(1_000_000, 'page is at most 1000000')
      .default(1),
    pageSize: z.coerce
      .number({ message: 'pageSize must be a number' })
      .int('pageSize must be a whole number')
      .min(1, 'pageSize is at least 1')
      .max(ACTIVITIES_MAX_PAGE_SIZE, `pageSize is at most ${ACTIVITIES_MAX_PAGE_SIZE}`)
      .default(ACTIVITIES_PAGE_SIZE),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
export type ListActivitiesQuery = z.input<typeof listActivitiesQuerySchema>;

/**
 * A page of activities. docs/product.md §3 names only `hasMore`; it is answered by reading one row past the page, so a
 * list never counts everything the user has (no `total`).
 */
export const activitiesPaginationSchema = paginationSchema.omit({ total: true });
export type ActivitiesPagination = z.infer<typeof activitiesPaginationSchema>;

export const deleteCameraHistoryResponseSchema = z.object({
  deleted: z.number().int().describe('Activities removed, with their media'),
});
