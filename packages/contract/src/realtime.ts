import { z } from 'zod';
import { singleLineText } from './common.js';
import { cameraConfigurationErrorCodeSchema } from './cameras.js';
import { chatMessageSchema } from './chat.js';
import { ACTIVITY_SUMMARY_PERIODS, type RealtimeEventName } from './chat.constants.js';

/** POST /api/realtime/negotiate: where the hub is and a short-lived token for this user only. */
export const realtimeNegotiateResponseSchema = z.object({
  success: z.literal(true),
  url: z.string(),
  accessToken: z.string(),
});
export type RealtimeNegotiateResponse = z.infer<typeof realtimeNegotiateResponseSchema>;

/** The official client appends `negotiateVersion` when it negotiates here itself. */
export const realtimeNegotiateQuerySchema = z.strictObject({
  negotiateVersion: singleLineText('negotiateVersion', z.string().max(4)).optional(),
});

export const progressUpdateSchema = z.object({ in_progress_text: z.string() });
export type ProgressUpdate = z.infer<typeof progressUpdateSchema>;

export const activityCreatedEventSchema = z.object({
  activity_uuid: z.string(),
  camera_name: z.string().nullable(),
  date_time_utc: z.string(),
  description: z.string().nullable(),
  thumbnail_image_url: z.string().nullable(),
});
export type ActivityCreatedEvent = z.infer<typeof activityCreatedEventSchema>;

/**
 * The user's cameras changed: the client refetches its list. `camera_name` and the statuses are set when one
 * stream camera's configuration or stream moved on (configuring → configured | failed, reconnecting…), so an
 * add-camera screen can follow it without a refetch.
 */
export const camerasChangedEventSchema = z.object({
  reason: z.string().optional(),
  camera_name: z.string().optional(),
  configuration_status: z.enum(['pending', 'configuring', 'configured', 'failed']).optional(),
  configuration_error: z.string().nullable().optional(),
  configuration_error_code: cameraConfigurationErrorCodeSchema.nullable().optional(),
  stream_status: z
    .enum(['connecting', 'streaming', 'reconnecting', 'private', 'stopped'])
    .nullable()
    .optional(),
});
export type CamerasChangedEvent = z.infer<typeof camerasChangedEventSchema>;

/** Summaries of one of the user's days (YYYY-MM-DD in the profile's time zone) were written or rewritten. */
export const summariesUpdatedEventSchema = z.object({
  period: z.enum(ACTIVITY_SUMMARY_PERIODS),
  date: z.string(),
});
export type SummariesUpdatedEvent = z.infer<typeof summariesUpdatedEventSchema>;

/**
 * Every server event of the hub and its payload: the client-facing event map (DESIGN.md 5). One entry for
 * each name in `REALTIME_EVENTS` and no other, so a client that listens by name gets the payload's type.
 */
export const realtimeEventSchemas = {
  ReceiveMessage: chatMessageSchema,
  /** A message already delivered changed (an alert gained a coalesced activity, a correction, an LLM text). */
  ReceiveMessageUpdate: chatMessageSchema,
  ReceiveProgressUpdate: progressUpdateSchema,
  ActivityCreated: activityCreatedEventSchema,
  CamerasChanged: camerasChangedEventSchema,
  SummariesUpdated: summariesUpdatedEventSchema,
} as const satisfies Record<RealtimeEventName, z.ZodType>;
export type RealtimeEvents = {
  [K in keyof typeof realtimeEventSchemas]: z.infer<(typeof realtimeEventSchemas)[K]>;
};
