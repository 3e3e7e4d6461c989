import { billingFromConfig } from './adapters/billing/from-config.js';
import type { Adapters } from './bootstrap.js';
import { createActivitiesModule } from './modules/activities/activities.module.js';
import { createAlertsModule } from './modules/alerts/alerts.module.js';
import { createAnalysisModule } from './modules/analysis/analysis.module.js';
import { createAssistantModule } from './modules/assistant/assistant.module.js';
import { createAuthModule } from './modules/auth/auth.module.js';
import { createBillingModule } from './modules/billing/billing.module.js';
import { createCamerasModule } from './modules/cameras/cameras.module.js';
import { createChatModule } from './modules/chat/chat.module.js';
import { createHelperModule } from './modules/helper/helper.module.js';
import { createHighlightsModule } from './modules/highlights/highlights.module.js';
import { createIngestModule, privateEventsToday } from './modules/ingest/ingest.module.js';
import { createMediaModule } from './modules/media/media.module.js';
import { createMemoriesModule } from './modules/memories/memories.module.js';
import type { LiveClock } from './modules/nest/nest.live.js';
import { createNestModule } from './modules/nest/nest.module.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import type { NotificationsService } from './modules/notifications/notifications.service.js';
import { createRealtimeModule } from './modules/realtime/realtime.module.js';
import { createRecognitionModule } from './modules/recognition/recognition.module.js';
import { createRoutineModule } from './modules/routine/routine.module.js';
import { createRecurringFacesModule } from './modules/recurring-faces/recurring-faces.module.js';
import { createStreamsModule } from './modules/streams/streams.module.js';
import type { CameraPipeFactory } from './modules/streams/streams.pipe.js';
import { createSignupModule } from './modules/signup/signup.module.js';
import { createSitesModule } from './modules/sites/sites.module.js';
import { createUsersModule } from './modules/users/users.module.js';
import { createWatchesModule } from './modules/watches/watches.module.js';
import type { AppModule, ModuleContext } from './platform/module.js';
import { createReadCaches } from './platform/read-cache.js';

/** The adapters (`bootstrap.ts`), and switches tests use to look at one part alone. */
export interface AppDeps extends Adapters {
  /** Push and SMS/MMS delivery instead of the configured one (`VAPID_*`, `FCM_*`, `APNS_*`, `TWILIO_*`). */
  notifications?: NotificationsService;
  /** Whether each user message gets the home sitter's answer (default); tests of the chat's own mechanics turn it off. */
  chatAnswers?: boolean;
  /** Whether new activities get the AI's analysis (default); tests of what processing itself stores turn it off. */
  analysis?: boolean;
  /** Stands in for the stream cameras' ffmpeg pipes (tests of the streams module's rules). */
  createStreamPipe?: CameraPipeFactory;
  /** Stands in for the 30 s a desktop helper's live relay goes on without viewers (tests). */
  helperLiveLingerMs?: number;
  /** The Nest live sessions' clock and linger (tests). */
  nestLive?: { clock?: LiveClock; lingerMs?: number };
  /** The clock of billing's refund preview (tests share it with their fake Stripe). */
  billingNow?: () => Date;
}

/**
 * Every module, built from the shared context and what it needs of the modules before it: the order below
 * is the order of dependence (docs/architecture.md, "Module imports"), so nothing reaches forward to a module
 * built later. Answers them in that order (`all`, for app.ts to mount) and their APIs (`apis`, for main.ts
 * and tests).
 */
export async function buildModules(context: ModuleContext, deps: AppDeps) {
  const { config, database, events } = context;
  const media = createMediaModule(context, { signer: deps.mediaSigner });
  const signup = createSignupModule(context);
  const auth = await createAuthModule(context, {
    signup: signup.api,
    mailer: deps.mailer,
    signingKey: deps.signingKey,
    adminToken: deps.adminToken,
    signInPerEmail: deps.limits.signInPerEmail,
  });
  const users = createUsersModule(context, { auth: auth.api });
  // Per-user list caches, on the embedded database only (one process): docs/architecture.md "Caching".
  const caches = createReadCaches({
    enabled: database.kind === 'pglite',
    events,
    lookupUserId: users.api.findIdBySubject,
  });
  const memories = createMemoriesModule(context, { caches });
  const recognition = createRecognitionModule(context, { vision: deps.vision });
  const sites = createSitesModule(context, { memories: memories.api });
  const cameras = createCamerasModule(context, {
    caches,
    secrets: deps.secrets,
    // A count is not worth a failed cameras list (e.g. a time zone the database does not know): none shown.
    privateEventsToday: (userId) =>
      privateEventsToday(database.db, userId).catch((err: unknown) => {
        context.log.warn({ err, userId }, 'could not count the events private mode dropped today');
        return new Map<string, number>();
      }),
  });
  const realtime = await createRealtimeModule(context, {
    fanout: deps.fanout,
    signingKey: deps.signingKey,
    users: users.api,
  });
  const notifications = createNotificationsModule(context, {
    users: users.api,
    given: deps.notifications,
    // Asked when a failed push or text is tried again, long after everything here is built.
    alertWanted: (userId, activityId) => alerts.api.alertWanted(userId, activityId),
  });

  // The path of an upload (docs/architecture.md): ingest stores it and commits its row with an
  // `activities.process-upload` job, and hands it to `activities.api.processUpload` (on the embedded database
  // at once, the job being the fallback); activities turns it into an activity and says `upload.settled`;
  // the activity's `analysis.analyse` job is analysis', which asks alerts whether to tell the user.
  const activities = createActivitiesModule(context, {
    cameras: cameras.api,
    media: media.api,
    realtime: realtime.api,
  });
  const ingest = createIngestModule(context, { cameras: cameras.api, processing: activities.api });
  // The desktop helper bridges cameras the server cannot reach: it uploads their events through the ingest
  // like a camera, and relays their live view, which the streams module serves beside the pulled cameras'.
  const helper = createHelperModule(context, {
    cameras: cameras.api,
    users: users.api,
    liveLingerMs: deps.helperLiveLingerMs,
  });
  // Stream cameras make the same uploads a camera would send, so they are built after the ingest.
  const streams = createStreamsModule(context, {
    cameras: cameras.api,
    ingest: ingest.api,
    media: media.api,
    createPipe: deps.createStreamPipe,
    relayedLive: helper.api.live,
    // Nest cameras are watched on demand; their module is built later and asked only when a viewer comes.
    onDemandLive: {
      open: (camera) => nest.api.live.open(camera),
      live: (cameraId) => nest.api.live.live(cameraId),
    },
    // Built below; asked only once requests arrive.
    webrtcOnly: (cameraId) => nest.api.webrtcOnly(cameraId),
  });
  const chat = createChatModule(context, {
    caches,
    realtime: realtime.api,
    media: media.api,
    activities: activities.api,
    answers: deps.chatAnswers !== false,
  });
  const alerts = createAlertsModule(context, {
    chat: chat.api,
    notifications: notifications.api,
    activities: activities.api,
    recognition: recognition.api,
    users: users.api,
    llm: deps.llm,
  });
  // Watch requests made in the chat ("tell me when a car arrives") alert when an analysed event matches.
  const watches = createWatchesModule(context, {
    chat: chat.api,
    notifications: notifications.api,
    activities: activities.api,
  });
  // Each camera's routine, counted from its own events of the last weeks, tells the usual from the unusual.
  const routine = createRoutineModule(context);
  const analysis = createAnalysisModule(context, {
    vision: deps.vision,
    routine: routine.api,
    media: media.api,
    recognition: recognition.api,
    activities: activities.api,
    alerts: alerts.api,
    watches: watches.api,
    enabled: deps.analysis !== false,
  });
  // Unknown faces seen on several days are offered once in the chat; a reply naming them makes the memory.
  const recurringFaces = createRecurringFacesModule(context, {
    vision: deps.vision,
    analysis: analysis.api,
    chat: chat.api,
    memories: memories.api,
    recognition: recognition.api,
  });
  const assistant = createAssistantModule(context, {
    chat: chat.api,
    memories: memories.api,
    notifications: notifications.api,
    activities: activities.api,
    // A reply to a recurring face's offer names or dismisses it; any other reply may correct an alert.
    alerts: recurringFaces.api.answeringFirst(alerts.api),
    watches: watches.api,
    llm: deps.llm,
  });
  // Paid plans: Stripe's customers and subscriptions on the users' rows; a subscription starting releases
  // the uploads held for want of free events; the free-events notice goes out through chat and push.
  const billing = createBillingModule(context, {
    provider: billingFromConfig(config),
    users: users.api,
    activities: activities.api,
    chat: chat.api,
    notifications: notifications.api,
    now: deps.billingNow,
  });
  // Google Nest: a linked account's devices become cameras; Google refusing the link is told in the chat.
  const nest = createNestModule(context, {
    cameras: cameras.api,
    users: users.api,
    chat: chat.api,
    ingest: ingest.api,
    activities: activities.api,
    secrets: deps.secrets,
    streams: streams.api,
    live: deps.nestLive,
  });
  const highlights = createHighlightsModule(context, { users: users.api, media: media.api, llm: deps.llm });

  const all: AppModule<unknown>[] = [
    ...[media, signup, auth, users, memories, recognition, sites, cameras, realtime, notifications],
    ...[activities, ingest, helper, streams, chat, alerts, watches, routine, analysis, recurringFaces],
    assistant,
    ...[billing, nest, highlights],
  ];

  const apis = {
    activities: activities.api,
    auth: auth.api,
    chat: chat.api,
    helper: helper.api,
    highlights: highlights.api,
    ingest: ingest.api,
    media: media.api,
    memories: memories.api,
    nest: nest.api,
    notifications: notifications.api,
    realtime: realtime.api,
    recognition: recognition.api,
    recurringFaces: recurringFaces.api,
    routine: routine.api,
    streams: streams.api,
    watches: watches.api,
  };
  return { all, apis };
}
