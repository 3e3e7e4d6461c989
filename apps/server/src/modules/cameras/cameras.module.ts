import { createNetworkPolicy, hostAddresses, parseCameraNetworks } from '@homesitter/cameras';
import { ACTIVITY_GROUPING_SECONDS } from '@homesitter/contract';
import { createSignedUrlCache } from '../media/media.module.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ReadCaches } from '../../platform/read-cache.js';
import { createUploadCameras } from './camera-arrivals.js';
import { createCamerasRepository } from './cameras.repository.js';
import { registerCameraRoutes } from './cameras.routes.js';
import { createCamerasService } from './cameras.service.js';
import { createHelperCameras } from './helper-cameras.js';
import { createNestCameras } from './nest-cameras.js';
import { createStreamCameras } from './stream-cameras.js';
import { createUploadCredentialsService } from './upload-credentials.service.js';

// What other modules may use besides the API: rules and errors they share.
export { DEFAULT_CAMERA_NAME, normalizeCameraName } from './camera-name.js';
export { cameraErrors } from './cameras.errors.js';
/** Unassigns a removed property's cameras, on the caller's transaction (sites). */
export { unassignSiteCameras } from './cameras.repository.js';
export type { StreamCamera, StreamCameras } from './stream-cameras.js';
export type { HelperCamera, HelperCameras, HelperCameraState } from './helper-cameras.js';
export type { NestCameraRow, NestCameras } from './nest-cameras.js';

/**
 * The user's cameras (registered by their first upload, renamed, moved, removed) and their upload logins
 * for FTP, email and HTTP.
 */
export function createCamerasModule(
  context: ModuleContext,
  needs: {
    caches: ReadCaches;
    secrets: SecretBox;
    /**
     * Per camera name (lower case), the events private mode dropped today: the ingest's statement (its table
     * `uploads`), named by its shape since the ingest is built after this module and needs it.
     */
    privateEventsToday: (userId: string) => Promise<Map<string, number>>;
  },
) {
  const { config, events } = context;
  const repo = createCamerasRepository(context.database.db);
  // A bad CAMERA_NETWORKS stops the server at start, with the entry named. The server's own addresses are
  // never cameras unless listed one by one: no probing of its own ports through a private network.
  const networks = createNetworkPolicy(parseCameraNetworks(config.CAMERA_NETWORKS), {
    ownAddresses: hostAddresses,
  });
  const snapshots = createSignedUrlCache({
    sign: (key, ttl) => context.storage.signedUrl(key, ttl),
    urlTtlSeconds: config.MEDIA_URL_TTL,
    now: () => new Date(),
  });
  const cameras = createCamerasService({
    repo,
    secrets: needs.secrets,
    events,
    userIdOf: needs.caches.userIds.userIdOf,
    snapshotUrl: snapshots.url,
    privateEventsToday: needs.privateEventsToday,
    networks,
    // Every write that changes the list drops the user's entry; the lifetime only bounds a mistake.
    lists: needs.caches.create({
      ttlMs: 10 * 60_000,
      weigh: (json) => json.byteLength,
      maxWeight: 16 * 2 ** 20,
    }),
  });
  const uploadCredentials = createUploadCredentialsService({
    repo,
    secrets: needs.secrets,
    publicHost: config.PUBLIC_HOST,
    ftpPort: config.FTP_PORT,
    smtpPort: config.INGEST_SMTP_PORT,
  });
  return {
    api: {
      /** The user of an upload login, or null: FTP, SMTP and HTTP ingest sign cameras in with it. */
      verifyUploadLogin: (username: string, password: string) =>
        uploadCredentials.verifyUploadCredentials(username, password),
      /** The cameras side of an arriving event: registered, restored, stamped. */
      // A burst of one event's files is announced to clients once.
      arrivals: createUploadCameras({ repo, events, quietMs: ACTIVITY_GROUPING_SECONDS * 1000 }),
      /** Stream cameras as the streams module reads and records them. */
      streams: createStreamCameras({ repo, secrets: needs.secrets, events }),
      /** Cameras the owner's desktop helper bridges, as the helper module reads and records them. */
      helpers: createHelperCameras({ repo, secrets: needs.secrets, events }),
      /** Google Nest cameras, as the nest module adds, records and removes them. */
      nest: createNestCameras({ repo, events }),
      /** `CAMERA_NETWORKS`: every address a stream camera's configuration connects to is checked here. */
      networks,
      /** The owner's camera by name (404 when not theirs): the live view's question. */
      get: (subject: string, name: string) => cameras.get(subject, name),
    },
    routes: (app, { guards }) => registerCameraRoutes(app, { cameras, uploadCredentials, guards }),
  } satisfies AppModule<unknown>;
}
export type CamerasApi = ReturnType<typeof createCamerasModule>['api'];
