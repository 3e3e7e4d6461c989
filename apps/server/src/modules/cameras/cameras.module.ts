import { ACTIVITY_GROUPING_SECONDS } from '@homesitter/contract';
import type { SecretBox } from '../../platform/secrets.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ReadCaches } from '../../platform/read-cache.js';
import { createUploadCameras } from './camera-arrivals.js';
import { createCamerasRepository } from './cameras.repository.js';
import { registerCameraRoutes } from './cameras.routes.js';
import { createCamerasService } from './cameras.service.js';
import { createUploadCredentialsService } from './upload-credentials.service.js';

// What other modules may use besides the API: rules and errors they share.
export { DEFAULT_CAMERA_NAME, normalizeCameraName } from './camera-name.js';
export { cameraErrors } from './cameras.errors.js';
/** Unassigns a removed property's cameras, on the caller's transaction (sites). */
export { unassignSiteCameras } from './cameras.repository.js';

/**
 * The user's cameras (registered by their first upload, renamed, moved, removed) and their upload logins
 * for FTP, email and HTTP.
 */
export function createCamerasModule(
  context: ModuleContext,
  needs: { caches: ReadCaches; secrets: SecretBox },
) {
  const { config, events } = context;
  const repo = createCamerasRepository(context.database.db);
  const cameras = createCamerasService({
    repo,
    secrets: needs.secrets,
    events,
    userIdOf: needs.caches.userIds.userIdOf,
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
    },
    routes: (app, { guards }) => registerCameraRoutes(app, { cameras, uploadCredentials, guards }),
  } satisfies AppModule<unknown>;
}
export type CamerasApi = ReturnType<typeof createCamerasModule>['api'];
