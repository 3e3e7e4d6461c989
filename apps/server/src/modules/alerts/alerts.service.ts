import { isUniqueViolation } from '../../platform/db/errors.js';
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '@homesitter/contract';
import type { Logger } from '../../platform/logger.js';
import type { AgentMessageInput } from '../chat/chat.service.js';
import type { ActivitiesApi, AnalysisContext } from '../activities/activities.module.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { AlertsRepository } from './alerts.repository.js';
import {
  alertText,
  attachmentFor,
  isAlertWorthy,
  readableDescription,
  unusualLineOf,
  wantedByCamera,
  type ActivityMedia,
} from './alert-message.js';
import { languageOf } from '../language/language.module.js';

/** What the push and SMS/MMS of an alert carry (notifications module). */
export interface ActivityAlertNotification {
  kind: 'activity_alert';
  activityUuid: string;
  title: string;
  body: string;
  thumbnailUrl?: string;
}

export interface AlertsServiceDeps {
  repo: AlertsRepository;
  /** Records which alert an activity belongs to (the activities module owns the activity's row). */
  activities: Pick<ActivitiesApi, 'claimAlert'>;
  chat: {
    postAgentMessage(userId: string, message: AgentMessageInput): Promise<ChatMessage>;
    updateAgentMessage(
      userId: string,
      messageId: string,
      patch: Pick<AgentMessageInput, 'text' | 'videos' | 'source_activity_uuid_list'>,
      options?: { resend?: boolean },
    ): Promise<ChatMessage | undefined>;
  };
  notify(userId: string, notification: ActivityAlertNotification): Promise<unknown>;
  /** Signed URLs of an activity's poster or thumbnail, clip and HLS playlist. */
  media(activity: ActivityRow): Promise<ActivityMedia>;
  /** After the alert is out, the LLM may write a richer sentence (`alerts.describe-alert` job); absent without one. */
  requestRicherDescription?(activityId: string): Promise<void>;
  log: Logger;
  /** Events of one camera within this many ms of an alert's first event join that alert (60 s). */
  coalesceWindowMs?: number;
}

export const COALESCE_WINDOW_MS = 60_000;

/**
 * Alerts: an activity with a person, vehicle or animal on a camera that is not muted becomes an agent chat
 * message with the activity attached, pushed to the owner. Events of one camera within 60 s of an alert's
 * first event join it: the message is updated (`ReceiveMessageUpdate`) with the time of the newest, so it
 * moves to the bottom of the chat; nobody is pushed again.
 */
export function createAlertsService(deps: AlertsServiceDeps) {
  const { repo, log } = deps;
  const windowMs = deps.coalesceWindowMs ?? COALESCE_WINDOW_MS;

  /** The message as it should read now, built from every activity of the alert (so it is always whole). */
  async function contentOf(userId: string, messageId: string): Promise<AgentMessageInput> {
    const activities = await repo.alertActivities(userId, messageId);
    const language = languageOf(await repo.preferredLanguage(userId));
    return {
      text: alertText(activities, language),
      videos: await Promise.all(activities.map(async (a) => attachmentFor(a, await deps.media(a)))),
      source_activity_uuid_list: activities.map((a) => a.id),
    };
  }

  /** Posts the alert with its claimed id; a message that already exists is brought up to date instead. */
  async function post(userId: string, messageId: string): Promise<'posted' | 'updated'> {
    const message = await contentOf(userId, messageId);
    try {
      await deps.chat.postAgentMessage(userId, { ...message, message_uuid: messageId });
      return 'posted';
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await deps.chat.updateAgentMessage(userId, messageId, message);
      return 'updated';
    }
  }

  /**
   * Re-renders an alert message from its activities (a joined activity, a correction, a richer text). An
   * activity that joined makes it `resend`: the bubble takes the time of now (its newest event) and moves to
   * the bottom of the chat, instead of keeping its first event's time above what was said since.
   */
  async function refresh(
    userId: string,
    messageId: string,
    options: { resend?: boolean } = {},
  ): Promise<ChatMessage | undefined> {
    return deps.chat.updateAgentMessage(userId, messageId, await contentOf(userId, messageId), options);
  }

  async function push(ctx: AnalysisContext, activity: ActivityRow): Promise<void> {
    const media = await deps.media(activity);
    try {
      await deps.notify(ctx.user.id, {
        kind: 'activity_alert',
        activityUuid: activity.id,
        title: ctx.camera.name,
        body: [
          unusualLineOf([activity], languageOf(ctx.user.preferredLanguage)),
          readableDescription(activity),
        ]
          .filter(Boolean)
          .join('\n'),
        ...(media.thumbnail_image_url ? { thumbnailUrl: media.thumbnail_image_url } : {}),
      });
    } catch (err) {
      // The alert is in the chat already; a failed push is logged, and retrying would post nothing new.
      log.error({ err, activityId: activity.id }, 'alert push failed');
    }
  }

  return {
    /**
     * Alerts about an analysed activity when it is worth one; see the module comment. Safe to rerun.
     * Answers whether the activity was pushed and texted as an alert of its own (not joined to an earlier
     * one of the same event), so a watch request it also matches does not text the user a second time.
     */
    async alertFor(ctx: AnalysisContext): Promise<boolean> {
      const { activity, camera, user } = ctx;
      const quiet =
        camera.isMuted ||
        camera.isPrivateModeEnabled ||
        user.isGlobalPrivacyModeEnabled ||
        !wantedByCamera(camera, activity);
      if (!isAlertWorthy(activity) || quiet) {
        // A second look (more files of the event) may have changed what an alert already sent says.
        if (activity.alertMessageId) await refresh(user.id, activity.alertMessageId);
        return false;
      }
      const started = performance.now();
      const claim = await deps.activities.claimAlert(activity, windowMs, randomUUID());
      if (claim.kind === 'new') {
        const outcome = await post(user.id, claim.messageId);
        if (outcome === 'posted') await push(ctx, activity);
      } else if (!(await refresh(user.id, claim.messageId, { resend: claim.kind === 'joined' }))) {
        // Claimed by an attempt that stopped before posting (a crash): post it now. Pushing is left to the
        // first activity's own run, so a joined event never pushes on its own.
        const outcome = await post(user.id, claim.messageId);
        if (outcome === 'posted' && activity.coalescedActivityId === activity.id) await push(ctx, activity);
      }
      log.debug(
        { activityId: activity.id, alert: claim.kind, ms: Math.round(performance.now() - started) },
        'alert sent',
      );
      if (claim.kind !== 'joined' && deps.requestRicherDescription)
        await deps.requestRicherDescription(activity.id);
      return (
        claim.kind === 'new' || (claim.kind === 'existing' && activity.coalescedActivityId === activity.id)
      );
    },

    refresh,
  };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
