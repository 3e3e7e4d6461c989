import type { Llm } from '../../adapters/llm/llm.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { NotificationsApi } from '../notifications/notifications.module.js';
import type { RecognitionApi } from '../recognition/recognition.module.js';
import { registerAlertsWorkers, requestRicherDescription, scheduleAlertsJobs } from './alerts.jobs.js';
import { wantedByCamera } from './alert-message.js';
import { createAlertsRepository } from './alerts.repository.js';
import { createAlertsService } from './alerts.service.js';
import { createEphemeralPurge } from './amnesia-purge.js';
import { registerCorrectionRoutes } from './corrections.routes.js';
import { createCorrectionsService } from './corrections.service.js';
import { createLlmDescriber } from './llm-sentence.js';
import { activityPicture, createRicherDescriptions } from './llm-rewrite.js';
import type { UsersApi } from '../users/users.module.js';

// What other modules may use besides the API: rules and errors they share.
export {
  attachmentFor,
  isAlertWorthy,
  readableDescription,
  reportedSomeoneUnseen,
  type ActivityMedia,
} from './alert-message.js';

export interface AlertsNeeds {
  chat: Pick<ChatApi, 'postAgentMessage' | 'updateAgentMessage' | 'deleteAgentMessage'>;
  notifications: Pick<NotificationsApi, 'notify'>;
  activities: Pick<
    ActivitiesApi,
    | 'loadContext'
    | 'render'
    | 'deleteActivities'
    | 'claimAlert'
    | 'setFaceMemory'
    | 'updateRecognition'
    | 'updateDescriptions'
  >;
  recognition: Pick<RecognitionApi, 'addCorrection'>;
  users: Pick<UsersApi, 'getProfile'>;
  llm: Llm | undefined;
}

/**
 * Alerts: what the analysis found worth telling goes to the chat and the user's devices (with a language
 * model, a richer sentence follows); the user's corrections ("that's Rose") teach recognition; activities
 * kept only for their alert while amnesia mode was on are purged.
 */
export function createAlertsModule(context: ModuleContext, needs: AlertsNeeds) {
  const { log, jobs, storage } = context;
  const { chat, llm } = needs;
  const repo = createAlertsRepository(context.database.db);
  const alerts = createAlertsService({
    repo,
    activities: needs.activities,
    chat,
    notify: (userId, notification) => needs.notifications.notify(userId, notification),
    media: (row) => needs.activities.render(row),
    requestRicherDescription: llm ? requestRicherDescription(jobs) : undefined,
    log,
  });
  const corrections = createCorrectionsService({
    repo,
    activities: needs.activities,
    faceExamples: needs.recognition,
    alerts,
  });
  return {
    api: {
      /** Sends (or joins) the alert of an analysed activity, when it is worth one. */
      alertFor: alerts.alertFor.bind(alerts),
      /**
       * Whether the user's alert about an activity should still reach their devices (a failed push or text
       * tried again later): the activity is kept, its camera neither muted nor private, no privacy mode.
       */
      async alertWanted(userId: string, activityId: string): Promise<boolean> {
        const ctx = await needs.activities.loadContext(activityId);
        if (!ctx || ctx.user.id !== userId) return false;
        return !(
          ctx.camera.isMuted ||
          ctx.camera.isPrivateModeEnabled ||
          ctx.user.isGlobalPrivacyModeEnabled ||
          !wantedByCamera(ctx.camera, ctx.activity)
        );
      },
      /** A chat reply to an alert read as a correction ("that's Rose"), if it is one. */
      applyChatCorrection: corrections.applyChatCorrection.bind(corrections),
    },
    routes: (app, { guards }) => registerCorrectionRoutes(app, { corrections, users: needs.users, guards }),
    workers: (jobs) =>
      registerAlertsWorkers(jobs, {
        richer:
          llm &&
          createRicherDescriptions({
            repo,
            activities: needs.activities,
            describer: createLlmDescriber({ llm, log }),
            image: activityPicture(storage),
            alerts,
          }),
        purge: createEphemeralPurge({
          repo,
          chat,
          alerts,
          deleteActivity: async (userId, id) =>
            void (await needs.activities.deleteActivities([{ userId, id }])),
          log,
        }),
        log,
      }),
    schedule: scheduleAlertsJobs,
  } satisfies AppModule<unknown>;
}
export type AlertsApi = ReturnType<typeof createAlertsModule>['api'];
