import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { CamerasApi } from '../cameras/cameras.module.js';
import type { IngestApi } from '../ingest/ingest.module.js';
import type { MediaApi } from '../media/media.module.js';
import { createConfigurationRunner } from './streams.configuration.js';
import { createPipeFactory } from './streams.pipe-factory.js';
import { createLivePull } from './streams.live-pull.js';
import type { CameraPipeFactory, LivePipe, OnDemandLive } from './streams.pipe.js';
import { registerStreamRoutes } from './streams.routes.js';
import { createSupervision } from './streams.supervision.js';

/** How often the pulling instance reconciles every stream camera with the database (see `ready`). */
const RESYNC_MS = 30_000;

export interface StreamsNeeds {
  cameras: Pick<CamerasApi, 'streams' | 'networks' | 'get'>;
  ingest: Pick<IngestApi, 'acceptUpload'>;
  media: Pick<MediaApi, 'signer' | 'toolPaths'>;
  /** Stands in for the real pipes (tests of the module alone). */
  createPipe?: CameraPipeFactory;
  /** The live side of a camera the desktop helper bridges, relayed by the helper module, or undefined. */
  relayedLive?: (cameraId: string) => LivePipe | undefined;
  /** Cameras watched on demand (Nest), whose module is built later: asked only when a viewer comes. */
  onDemandLive?: OnDemandLive;
  /** Whether a camera plays only over WebRTC (Nest's newer cameras): its live view answers `mode: webrtc`. */
  webrtcOnly?: (cameraId: string) => Promise<boolean>;
}

/**
 * Stream cameras (RTSP/ONVIF, docs/stream-cameras.md): configures them when their connection is given, pulls
 * each configured one that is not private (one upstream for recording and every viewer), turns motion into
 * the same uploads a camera would send, and serves live view. `STREAMS_ENABLED=false` leaves the pulling to
 * another instance (exactly one pulls); configuration still runs wherever it is asked for.
 */
export function createStreamsModule(context: ModuleContext, needs: StreamsNeeds) {
  const { config, log, events, storage } = context;
  const cameras = needs.cameras.streams;
  const workDir = join(config.DATA_DIR, 'streams');
  const supervision = createSupervision({
    cameras,
    ingest: needs.ingest,
    storage,
    log,
    workDir,
    createPipe:
      needs.createPipe ??
      createPipeFactory({
        ffmpegPath: needs.media.toolPaths.ffmpeg,
        workDir,
        log,
        preEventSeconds: config.STREAM_PRE_EVENT_SECONDS,
        tailSeconds: config.STREAM_TAIL_SECONDS,
        maxClipSeconds: config.STREAM_MAX_CLIP_SECONDS,
      }),
  });
  const configuration = createConfigurationRunner({
    cameras,
    networks: needs.cameras.networks,
    toolPaths: needs.media.toolPaths,
    log,
    onConfigured: async (camera, result) => {
      await supervision.snapshot(camera, result.firstFrame, new Date());
      await supervision.syncCamera(camera.id);
    },
  });

  const pulling = config.STREAMS_ENABLED;
  let resync: NodeJS.Timeout | undefined;
  const syncUser = ({ userId }: { userId: string }) => {
    if (pulling)
      void supervision.syncUser(userId).catch((err: unknown) => log.warn({ err }, 'stream sync failed'));
  };
  events.on('camera.configure', ({ cameraId }) => void configuration.request(cameraId));
  events.on('cameras.changed', syncUser);
  events.on('user.privacy-changed', syncUser);
  events.on('user.deleted', syncUser);

  return {
    api: {
      /** Resolves when every configuration running now has finished (tests). */
      configurationsSettled: () => configuration.settled(),
      /** The live pipe of a camera being pulled (tests, benches). */
      pipe: (cameraId: string) => supervision.pipe(cameraId),
      /** Whether this instance pulls (and serves `/api/live/`): on-demand sessions run only here. */
      pulling: config.STREAMS_ENABLED,
      /** A live-only pull for a camera watched on demand (no motion, clips or snapshots). */
      livePull: () => createLivePull({ ffmpegPath: needs.media.toolPaths.ffmpeg, log }),
    },
    routes: (app, { guards }) => {
      registerStreamRoutes(app, {
        cameras: needs.cameras,
        live: (cameraId) =>
          supervision.pipe(cameraId)?.live ??
          needs.relayedLive?.(cameraId) ??
          needs.onDemandLive?.live(cameraId),
        onDemand: needs.onDemandLive,
        signer: needs.media.signer,
        guards,
        webrtcOnly: needs.webrtcOnly,
      });
      // Before the job queue stops (onClose): the clips the pipes finish while stopping are accepted first.
      app.addHook('preClose', async () => {
        clearInterval(resync);
        await configuration.close();
        await supervision.close();
      });
    },
    ready: async () => {
      if (!pulling) return;
      // Leftovers of a crash: the ingest took what it acknowledged, the rest was never acknowledged.
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true });
      await configuration.resumeInterrupted();
      await supervision.startAll();
      // Changes made through another instance reach this one's events only here: a periodic reconcile.
      resync = setInterval(() => {
        supervision.startAll().catch((err: unknown) => log.warn({ err }, 'stream cameras not reconciled'));
      }, RESYNC_MS);
      resync.unref();
    },
  } satisfies AppModule<unknown>;
}
export type StreamsApi = ReturnType<typeof createStreamsModule>['api'];
