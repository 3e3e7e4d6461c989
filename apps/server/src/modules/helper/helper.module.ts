import { join, resolve } from 'node:path';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import { serverPath } from '../../platform/paths.js';
import type { CamerasApi } from '../cameras/cameras.module.js';
import type { UsersApi } from '../users/users.module.js';
import { createHelperBuilder } from './helper.build.js';
import { createHelperDownloads } from './helper.downloads.js';
import { createHelperRepository } from './helper.repository.js';
import { registerHelperRoutes } from './helper.routes.js';
import { createHelperService } from './helper.service.js';

export { HELPER_NOT_CONNECTED } from './helper.service.js';

/** A relay nobody watches goes on this long before the helper is told to stop. */
const LIVE_LINGER_MS = 30_000;

export interface HelperNeeds {
  cameras: Pick<CamerasApi, 'helpers'>;
  users: Pick<UsersApi, 'findIdBySubject' | 'requireIdBySubject'>;
  /** Stands in for the 30 s a relay goes on without viewers (tests). */
  liveLingerMs?: number | undefined;
}

/**
 * The desktop helper's side of the server (docs/stream-cameras.md, "Cameras bridged by the desktop helper"):
 * its control socket (which cameras it bridges, what it reports of them), the live relay of a bridged camera,
 * its status for the web app, and the builds to download. The sockets are held by the instance that serves
 * live view (`STREAMS_ENABLED`), exactly as it holds the pulled cameras' pipes.
 */
export function createHelperModule(context: ModuleContext, needs: HelperNeeds) {
  const { config, log, events } = context;
  const sockets = config.STREAMS_ENABLED;
  const service = createHelperService({
    cameras: needs.cameras.helpers,
    repo: createHelperRepository(context.database.db),
    log,
    lingerMs: needs.liveLingerMs ?? LIVE_LINGER_MS,
  });
  const helperDir = serverPath('..', 'helper');
  const downloads = createHelperDownloads(
    config.HELPER_DOWNLOADS_DIR ? resolve(config.HELPER_DOWNLOADS_DIR) : join(helperDir, 'dist'),
    createHelperBuilder({ cacheDir: join(config.DATA_DIR, 'helper-builds'), helperDir, log }),
  );
  if (sockets) {
    // Not awaited: a handler that waited would wait for the very work that emitted the event.
    const sync = ({ userId }: { userId: string }) => void service.sync(userId);
    events.on('cameras.changed', sync);
    events.on('user.privacy-changed', sync);
    events.on('user.deleted', ({ userId }) => {
      service.forget(userId);
      sync({ userId });
    });
  }

  return {
    api: {
      /** The live side of a camera a helper bridges now (the streams module's live routes serve it). */
      live: (cameraId: string) => service.live(cameraId),
      /** Resolves when the helpers' work queued so far is done (tests). */
      settled: () => service.settled(),
    },
    routes: (app, { guards }) => {
      registerHelperRoutes(app, { service, downloads, users: needs.users, guards, log, sockets });
      app.addHook('preClose', async () => service.close());
    },
    ready: async () => {
      if (sockets) await service.resume();
    },
    close: () => service.settled(),
  } satisfies AppModule<unknown>;
}
export type HelperApi = ReturnType<typeof createHelperModule>['api'];
