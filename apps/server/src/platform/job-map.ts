import { MEMORY_CATEGORIES } from '@homesitter/contract';
import { z } from 'zod';

/**
 * Every job of the server: its name (`<module>.<what>`, the module that works it and registers its worker
 * in `<module>.jobs.ts`: the architecture test checks both), and the schema of its payload. `jobs.send`
 * and `jobs.work` are typed by this map; each payload is checked against its schema when a worker takes it
 * (one that does not match is dropped with an error: no retry would fix it); and the server refuses to start
 * while a job here has no worker (jobs.ts `missingWorkers`). A new job is added here first.
 */
const activityId = z.object({ activityId: z.uuid() });
const nothing = z.object({});
/** `at` pins the run's clock (backfills, tests); absent, the job runs for now. */
const clock = z.object({ at: z.iso.datetime({ offset: true }).optional() });

export const JOB_SCHEMAS = {
  /** activities: turn a stored camera upload into (part of) an activity. Sent by ingest with the upload row. */
  'activities.process-upload': z.object({ uploadId: z.uuid() }),
  /** activities, hourly: delete uploads held for lack of free events for more than 24 h. */
  'activities.purge-held': nothing,
  /** activities, daily: delete activities, their media and uploads older than RETENTION_DAYS. */
  'activities.retention': nothing,
  /** ingest, every 10 min and at start: remove stored uploads no row refers to (cut off by a crash). */
  'ingest.sweep-orphans': nothing,
  /** analysis: look at an activity, store what was seen, alert. Sent by activities with the activity. */
  'analysis.analyse': activityId,
  /** alerts, with an LLM: rewrite an alert's sentence from its image and facts, after it went out. */
  'alerts.describe-alert': activityId,
  /**
   * notifications: an alert's push to one device, or its text, that failed for a passing reason (provider
   * down, timeout); tried again with backoff for NOTIFY_RETRY_WINDOW_SECONDS. One job per alert, channel and
   * device or number (its id is derived from them), so a channel that went out is never sent again.
   */
  'notifications.retry-channel': z.object({
    userId: z.uuid(),
    activityId: z.uuid(),
    channel: z.enum(['push', 'sms']),
    /** The push token's row (push only). */
    tokenId: z.uuid().optional(),
    /** SHA-256 of the phone number the text was for (sms only): a number changed since is not texted. */
    phoneHash: z.string().length(64).optional(),
    title: z.string(),
    body: z.string(),
    thumbnailUrl: z.string().optional(),
    /** When the alert first went out: past the retry window it is stale and dropped. */
    alertedAt: z.iso.datetime({ offset: true }),
  }),
  /** alerts, hourly: purge the activities kept only for their alert while amnesia mode was on. */
  'alerts.purge-ephemeral': nothing,
  /** assistant: answer a user's chat message. Sent with the message, in its transaction. */
  'assistant.answer': z.object({ userId: z.uuid(), messageId: z.uuid() }),
  /** recognition: embed every face of a people memory's photo (queued when the photo is added). */
  'recognition.learn-faces': z.object({
    userId: z.uuid(),
    memoryId: z.uuid(),
    category: z.enum(MEMORY_CATEGORIES),
    imageId: z.uuid(),
    storageKey: z.string().min(1),
  }),
  /**
   * recognition, hourly at :35: offer the unknown faces that kept coming back this week to owners whose
   * evening hour it is (recurring-faces.service.ts), and purge offers past RETENTION_DAYS.
   */
  'recurring-faces.offer': clock,
  /** memories, hourly: delete memories past their expiry, with their photos. */
  'memories.purge-expired': nothing,
  /** watches, every 10 minutes: end the watch requests whose time is up (end reason `expired`). */
  'watches.expire': clock,
  /** highlights, every hour at :05: each property's summary of the last complete hours. */
  'highlights.hourly': clock,
  /** highlights, every hour at :10: today's summary so far, and yesterday's in full once the day has ended. */
  'highlights.daily': clock,
  /**
   * highlights, HIGHLIGHTS_REFRESH_DELAY_SECONDS after a user's new activity (one per user while one is
   * waiting): that user's summary of the day so far, from the day of `since` (the first activity it is for).
   */
  'highlights.refresh': clock.extend({ userId: z.uuid(), since: z.iso.datetime({ offset: true }) }),
  /**
   * nest, every 5 minutes: the linked Google accounts' devices as cameras (added in the
   * Google Home app: a new camera; removed there: the camera goes). With `userId`, that account only.
   */
  'nest.sync-devices': z.object({ userId: z.uuid().optional() }),
  /** highlights, after a user changed their language: their summaries of the last week, rewritten in it. */
  'highlights.relanguage': clock.extend({ userId: z.uuid() }),
} as const;

/**
 * The names jobs had before every job was named after the module that works it. A job still queued under
 * one (sent by the previous version) moves to its new name when the queue starts, and the old name's
 * schedule is dropped (jobs.ts `moveRenamedJobs`), so an upgrade loses none.
 */
export const RENAMED_JOBS: Readonly<Record<string, keyof typeof JOB_SCHEMAS>> = {
  'ingest.process-upload': 'activities.process-upload',
  'ingest.purge-held': 'activities.purge-held',
  'activity.analyse': 'analysis.analyse',
  'ai.describe-alert': 'alerts.describe-alert',
  'ai.purge-ephemeral': 'alerts.purge-ephemeral',
  'ai.answer': 'assistant.answer',
  'memory.learn-faces': 'recognition.learn-faces',
  'recognition.recurring-faces': 'recurring-faces.offer',
};
