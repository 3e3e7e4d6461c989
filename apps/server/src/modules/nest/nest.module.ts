import type { AppModule, ModuleContext } from '../../platform/module.js';
import { serverPath } from '../../platform/paths.js';
import type { SecretBox } from '../../platform/secrets.js';
import { NEST_CALLBACK_PATH } from '@homesitter/contract';
import type { CamerasApi } from '../cameras/cameras.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { IngestApi } from '../ingest/ingest.module.js';
import type { StreamsApi } from '../streams/streams.module.js';
import type { UsersApi } from '../users/users.module.js';
import { createNestGoogle } from './nest.google.js';
import { createNestEvents } from './nest.events.js';
import { createLiveBackoffs } from './nest.backoff.js';
import { createNestLive, realLiveClock, type LiveClock } from './nest.live.js';
import { registerNestWorkers, scheduleNestJobs, startNestPuller } from './nest.jobs.js';
import { PUBSUB_SCOPE } from './nest.google.js';
import { createPubsub, createServiceAccountTokens } from './nest.pubsub.js';
import { nestLinkLost } from './nest.notice.js';
import { createNestRepository } from './nest.repository.js';
import { registerNestRoutes } from './nest.routes.js';
import { createNestService } from './nest.service.js';
import { createNestWebRtc } from './nest.webrtc.js';
import { registerNestWebRtcRoutes } from './nest.webrtc.routes.js';

export interface NestNeeds {
  cameras: Pick<CamerasApi, 'nest' | 'get'>;
  users: Pick<UsersApi, 'requireIdBySubject' | 'findRowById' | 'beforeDelete'>;
  chat: Pick<ChatApi, 'postAgentMessage'>;
  ingest: Pick<IngestApi, 'acceptUpload' | 'acceptWithoutMedia' | 'uploadOutcome'>;
  /** A later message of an event session adds Nest's verdict to the session's activity. */
  activities: Pick<ActivitiesApi, 'addCameraVerdict' | 'loadContext' | 'updateDescriptions'>;
  secrets: SecretBox;
  /** Live view on demand: a live-only pull per watched camera, on the instance that pulls. */
  streams: Pick<StreamsApi, 'livePull' | 'pulling'>;
  /** The live sessions' clock and how long one goes on without viewers (tests). */
  live?: { clock?: LiveClock; lingerMs?: number };
}

/**
 * Google Nest cameras (docs/nest.md): the owner links a Google account, each Nest camera, doorbell and
 * display with a camera becomes a camera of theirs, kept in step every few minutes.
 */
export function createNestModule(context: ModuleContext, needs: NestNeeds) {
  const { config, log } = context;
  const configured = Boolean(config.NEST_PROJECT_ID && config.NEST_CLIENT_ID && config.NEST_CLIENT_SECRET);
  const google = configured
    ? createNestGoogle({
        projectId: config.NEST_PROJECT_ID!,
        clientId: config.NEST_CLIENT_ID!,
        clientSecret: config.NEST_CLIENT_SECRET!,
        authUrl: config.NEST_AUTH_URL,
        tokenUrl: config.NEST_TOKEN_URL,
        apiUrl: config.NEST_API_URL,
        redirectUri: `${config.PUBLIC_URL}${NEST_CALLBACK_PATH}`,
        pubsubScope: Boolean(config.NEST_PUBSUB_SUBSCRIPTION) && !config.NEST_PUBSUB_CREDENTIALS,
      })
    : null;
  const repo = createNestRepository(context.database.db);
  const service = createNestService({
    repo,
    google,
    cameras: needs.cameras.nest,
    secrets: needs.secrets,
    log,
    tellLinkLost: async (userId) => {
      const row = await needs.users.findRowById(userId);
      if (!row) return;
      const notice = nestLinkLost(row.preferredLanguage, `${config.PUBLIC_URL}/settings/camera-setup`);
      await needs.chat.postAgentMessage(userId, { text: notice.text });
    },
  });

  // Google limits a device's live commands, whichever view sent them: one back-off per camera for both.
  const liveClock = needs.live?.clock ?? realLiveClock;
  const backoffs = createLiveBackoffs(() => liveClock.now());
  const webrtc = createNestWebRtc({
    repo,
    commands: configured ? service.webrtc : null,
    cameras: needs.cameras.nest,
    log,
    backoffs,
  });

  // The account's rows go with it (cascade); Google's grant would outlive it unless revoked first.
  needs.users.beforeDelete((userId) => service.forget(userId));
  const events = createNestEvents({
    repo,
    cameras: needs.cameras.nest,
    ingest: needs.ingest,
    activities: needs.activities,
    eventImage: (userId, deviceName, eventId) => service.eventImage(userId, deviceName, eventId),
    eventClip: (userId, previewUrl) => service.eventClip(userId, previewUrl),
    log,
  });
  const live = createNestLive({
    target: async (cameraId) => {
      const device = await service.linkedDevice(cameraId);
      if (!device) return undefined;
      const camera = (await needs.cameras.nest.ofUser(device.userId)).find((c) => c.id === cameraId);
      if (!camera) return undefined;
      const owner = await needs.users.findRowById(device.userId);
      return {
        userId: device.userId,
        deviceName: device.deviceName,
        rtsp: device.protocols.includes('RTSP'),
        isPrivate: camera.isPrivate,
        language: owner?.preferredLanguage ?? 'en',
      };
    },
    google: service.rtsp,
    livePull: needs.streams.livePull,
    enabled: configured && needs.streams.pulling,
    log,
    backoffs,
    ...needs.live,
  });
  // A camera removed or made private, or the link lost (its cameras fail): its live session ends.
  const recheck = ({ userId }: { userId: string }) =>
    void live.recheck(userId).catch((err: unknown) => log.warn({ err }, 'nest: live sessions not checked'));
  context.events.on('cameras.changed', recheck);
  context.events.on('user.privacy-changed', recheck);
  context.events.on('user.deleted', recheck);
  const subscription = configured ? config.NEST_PUBSUB_SUBSCRIPTION : undefined;
  let stopPuller: (() => Promise<void>) | null = null;

  return {
    api: {
      /** One account's devices now (tests; the job does the same every few minutes). */
      sync: (userId: string) => service.sync(userId),
      /** The live view of Nest cameras that offer RTSP (the streams module's live routes ask it). */
      live: live.live,
      /** Live sessions running now (tests, benches). */
      liveSessions: () => live.sessions(),
      /** The MSE viewers of a camera's live session (tests). */
      liveViewers: (cameraId: string) => live.viewers(cameraId),
      /** Whether a camera plays only over WebRTC (the live view's `mode: webrtc`). */
      webrtcOnly: (cameraId: string) => webrtc.webrtcOnly(cameraId),
      /** Open WebRTC streams (tests). */
      webrtcSessions: () => webrtc.openSessions(),
    },
    routes: (app, { guards }) => {
      registerNestRoutes(app, {
        service,
        users: needs.users,
        guards,
        publicUrl: config.PUBLIC_URL,
        guideFile: serverPath('..', '..', 'docs', 'nest.md'),
      });
      // At shutdown every live session ends, and Google's streams are stopped (best effort).
      app.addHook('preClose', () => live.close());
      registerNestWebRtcRoutes(app, { webrtc, users: needs.users, cameras: needs.cameras, guards });
    },
    workers: (jobs) => registerNestWorkers(jobs, { nest: service }),
    schedule: async (jobs) => {
      if (configured) await scheduleNestJobs(jobs);
    },
    ready: () => {
      if (!subscription) return;
      const credentials = config.NEST_PUBSUB_CREDENTIALS;
      stopPuller = startNestPuller({
        pubsub: createPubsub({ url: config.NEST_PUBSUB_URL, subscription }),
        token: credentials
          ? createServiceAccountTokens({
              file: credentials,
              tokenUrl: config.NEST_TOKEN_URL,
              scope: PUBSUB_SCOPE,
            })
          : () => service.pubsubToken(),
        handle: events,
        log,
      });
    },
    close: async () => {
      await stopPuller?.();
      await webrtc.close();
    },
  } satisfies AppModule<unknown>;
}
export type NestApi = ReturnType<typeof createNestModule>['api'];
