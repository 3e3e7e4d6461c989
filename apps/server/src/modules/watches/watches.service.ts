import { isUniqueViolation } from '../../platform/db/errors.js';
import { derivedUuid } from '../../platform/ids.js';
import type { ChatMessage } from '@homesitter/contract';
import type { Logger } from '../../platform/logger.js';
import type { AnalysisContext } from '../activities/activities.module.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import {
  attachmentFor,
  isAlertWorthy,
  readableDescription,
  reportedSomeoneUnseen,
  type ActivityMedia,
} from '../alerts/alerts.module.js';
import type { AgentMessageInput } from '../chat/chat.service.js';
import {
  objectMatches,
  watchMatchText,
  type WatchChannel,
  type WatchRepeat,
} from '../conversation/conversation.module.js';
import { languageOf, type ObjectKind } from '../language/language.module.js';
import type { NewWatch, WatchesRepository, WatchRow } from './watches.repository.js';

/** At most this many watches run at once per user. */
export const MAX_ACTIVE_WATCHES = 20;

/** What a new watch is, by ids (the assistant resolves the user's names). */
export interface WatchInput {
  kinds: ObjectKind[];
  labels: string[];
  memoryIds: string[];
  cameraIds: string[];
  siteIds: string[];
  startsAt: Date;
  endsAt: Date;
  repeat: WatchRepeat;
  channel: WatchChannel;
  text: string;
  language: 'en' | 'de';
}

/** How a watch alert goes out: an activity alert, as texts only for "text me" when the user gets texts. */
export interface WatchNotification {
  kind: 'activity_alert';
  activityUuid: string;
  title: string;
  body: string;
  thumbnailUrl?: string;
  channels?: readonly ('push' | 'sms')[];
  /** Channels the event's own alert went out by already (never twice). */
  skip?: readonly ('push' | 'sms')[];
}

export interface WatchesServiceDeps {
  repo: WatchesRepository;
  chat: { postAgentMessage(userId: string, message: AgentMessageInput): Promise<ChatMessage> };
  notify(userId: string, notification: WatchNotification): Promise<unknown>;
  /** Signed URLs of an activity's poster, clip and playlist (the activities module's renderer). */
  media(activity: ActivityRow): Promise<ActivityMedia>;
  log: Logger;
  now?: () => Date;
}

/** The alert message of a watch for an event: one id per (watch, event), so a rerun never posts twice. */
export function watchMessageId(watchId: string, activityId: string): string {
  return derivedUuid(`homesitter:watch:${watchId}:${activityId}`);
}

export class TooManyWatchesError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} watches at once`);
    this.name = 'TooManyWatchesError';
  }
}

/** Whether an analysed event is what the watch waits for: its place, and its subject (any of them). */
export function watchMatches(w: WatchRow, ctx: Pick<AnalysisContext, 'activity' | 'camera'>): boolean {
  const { activity, camera } = ctx;
  if (w.cameraIds.length > 0 && !w.cameraIds.includes(camera.id)) return false;
  if (w.siteIds.length > 0 && !(camera.siteId && w.siteIds.includes(camera.siteId))) return false;
  const at = activity.occurredAt.getTime();
  if (at < w.startsAt.getTime() || at >= w.endsAt.getTime()) return false;
  if (w.kinds.length === 0 && w.memoryIds.length === 0) return isAlertWorthy(activity);
  const known = activity.recognised.some((r) => r.memory_uuid && w.memoryIds.includes(r.memory_uuid));
  const seen = activity.objects.some((o) => objectMatches({ kinds: w.kinds, labels: w.labels }, o));
  // Without a picture, someone the camera's maker reported is the person a watch for people waits for (never
  // a named one: nobody was recognised).
  const reported = w.kinds.includes('person') && reportedSomeoneUnseen(activity);
  return known || seen || reported;
}

/**
 * Watch requests: kept per user with an expiry, matched against every analysed event (after its alert was
 * decided), alerting once per matching event by the user's channels and in the chat; a once-watch ends with
 * its first match, an every-time watch runs until it expires.
 */
export function createWatchesService(deps: WatchesServiceDeps) {
  const { repo, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function alert(w: WatchRow, ctx: AnalysisContext, alerted: boolean): Promise<void> {
    const { activity, camera, user } = ctx;
    const media = await deps.media(activity);
    const language = languageOf(w.language);
    const memoryNames = activity.recognised
      .filter((r) => r.memory_uuid && w.memoryIds.includes(r.memory_uuid))
      .map((r) => r.name);
    const text = watchMatchText(
      {
        kinds: w.kinds,
        labels: w.labels,
        memoryNames,
        cameraNames: w.cameraIds.length > 0 ? [camera.name] : [],
        siteNames: [],
        from: w.startsAt,
        to: w.endsAt,
        repeat: w.repeat,
        channel: w.channel,
      },
      readableDescription(activity) || camera.name,
      language,
    );
    try {
      await deps.chat.postAgentMessage(user.id, {
        message_uuid: watchMessageId(w.id, activity.id),
        text,
        videos: [attachmentFor(activity, media)],
        source_activity_uuid_list: [activity.id],
      });
    } catch (err) {
      // Posted by an earlier run of this event's analysis: it was pushed then.
      if (isUniqueViolation(err)) return;
      throw err;
    }
    try {
      await deps.notify(user.id, {
        kind: 'activity_alert',
        activityUuid: activity.id,
        title: camera.name,
        body: text,
        ...(media.thumbnail_image_url ? { thumbnailUrl: media.thumbnail_image_url } : {}),
        ...(w.channel === 'sms' ? { channels: ['sms'] as const } : {}),
        // The event's own alert texted already: this push replaces its push, and no second text goes out.
        ...(alerted ? { skip: ['sms'] as const } : {}),
      });
    } catch (err) {
      log.error({ err, watchId: w.id, activityId: activity.id }, 'watch alert push failed');
    }
  }

  return {
    /** Keeps a new watch; TooManyWatchesError when the user has MAX_ACTIVE_WATCHES running. */
    async create(userId: string, input: WatchInput): Promise<WatchRow> {
      const at = now();
      if ((await repo.countActive(userId, at)) >= MAX_ACTIVE_WATCHES)
        throw new TooManyWatchesError(MAX_ACTIVE_WATCHES);
      const values: NewWatch = { userId, ...input };
      return repo.create(values);
    },

    /** The user's running watches, oldest first. */
    active: (userId: string) => repo.active(userId, now()),

    /** Ends these watches of the user; answers those that were still running. */
    cancel: (userId: string, ids: string[]) => repo.end(userId, ids, 'cancelled', now()),

    /**
     * An event's analysis is final: alert every watch of its owner it matches. Nothing is matched while
     * private mode is on (for the user or the camera), and a muted camera alerts nobody, as with alerts.
     * Safe to rerun: a once-watch is claimed by one event, and each (watch, event) posts one message.
     */
    async activityAnalysed(ctx: AnalysisContext, event: { alerted: boolean }): Promise<void> {
      const { activity, camera, user } = ctx;
      if (user.isGlobalPrivacyModeEnabled || camera.isPrivateModeEnabled || camera.isMuted) return;
      const candidates = await repo.forEvent(user.id, activity.occurredAt, activity.id);
      for (const w of candidates) {
        if (!watchMatches(w, ctx)) continue;
        if (w.repeat === 'once' && !(await repo.claim(user.id, w.id, activity.id, now()))) continue;
        await alert(w, ctx, event.alerted);
        log.info({ watchId: w.id, activityId: activity.id, repeat: w.repeat }, 'watch matched');
      }
    },

    /** Ends the watches whose time is up (`watches.expire`). */
    async expire(at?: Date): Promise<number> {
      const ended = await repo.expireDue(at ?? now());
      if (ended.length > 0) log.info({ count: ended.length }, 'watches expired');
      return ended.length;
    },
  };
}
export type WatchesService = ReturnType<typeof createWatchesService>;
