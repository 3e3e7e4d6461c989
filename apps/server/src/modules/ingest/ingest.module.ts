import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { CamerasApi } from '../cameras/cameras.module.js';
import { createBacklogGate } from './ingest.backlog.js';
import { registerIngestWorkers, scheduleIngestJobs } from './ingest.jobs.js';
import { createIngestRepository } from './ingest.repository.js';
import { registerIngestRoutes } from './ingest.routes.js';
import { startIngestServers, type IngestServerPorts } from './ingest.servers.js';
import { createIngestService, type EventInput, type UploadInput } from './ingest.service.js';

// What other modules may use besides the API: rules and errors they share.
/** Counts a dropped or held upload in `ingest_counters`, on the caller's transaction (activities). */
export { countIngestEvent, type IngestCounterReason } from './ingest.repository.js';
/**
 * The statements that read and move an upload's status (locked while pending; processed, dropped, held,
 * failed, released, deleted): `uploads` is the ingest's table, and the processing (activities) runs them on
 * its own transaction.
 */
/**
 * The events private mode dropped today per camera, which the cameras list shows; handed to the cameras
 * module by build-modules.ts (cameras is built before the ingest, which needs it).
 */
export { privateEventsToday } from './ingest.repository.js';
export {
  deleteUploadRows,
  findUploadRow,
  finishPendingUpload,
  lockPendingUploads,
  markUploadsProcessed,
  releaseHeldUploads,
  uploadsReceivedBefore,
  type UploadRow,
} from './ingest.repository.js';

export interface IngestNeeds {
  cameras: Pick<CamerasApi, 'verifyUploadLogin'>;
  /**
   * The next step of an upload's path, activities, which turns committed uploads into activities. Named by
   * the one call ingest makes, not imported: activities is built first, as it runs ingest's upload statements
   * on its own transaction. On the embedded database this process processes every upload it acknowledges,
   * so a committed upload is handed over at once and its job is the durable fallback (ingest.service.ts
   * `handOff`); with PostgreSQL the job alone carries it, to whichever instance takes it.
   */
  processing: { processUpload: (uploadId: string) => Promise<unknown> };
}

/**
 * Camera ingest, receiving side: uploads by FTP and SMTP (servers started by main.ts) and HTTP are stored
 * and committed with their `activities.process-upload` job before the camera hears "received".
 */
export function createIngestModule(context: ModuleContext, needs: IngestNeeds) {
  const { config, log, database, jobs } = context;
  const processNow = database.kind === 'pglite' ? needs.processing.processUpload : undefined;
  const repo = createIngestRepository(database.db);
  const ingest = createIngestService({
    repo,
    database,
    storage: context.storage,
    jobs,
    log,
    dataDir: config.DATA_DIR,
    maxBytes: config.INGEST_MAX_BYTES,
    orphanAgeSeconds: config.INGEST_ORPHAN_AGE_SECONDS,
    // Embedded only: there this process processes every upload it acknowledges (and hears when it is done).
    backlog: processNow ? createBacklogGate({ limit: config.INGEST_MAX_PENDING }) : undefined,
    handOff: processNow
      ? (ids) => {
          for (const id of ids)
            processNow(id).catch((err: unknown) => {
              log.warn({ err, uploadId: id }, 'camera upload not processed yet; its job will retry');
            });
        }
      : undefined,
  });
  context.events.on('upload.settled', ({ uploadId }) => ingest.uploadSettled(uploadId));
  const verify = needs.cameras.verifyUploadLogin;
  return {
    api: {
      /** Starts the FTP and SMTP servers beside the HTTP API; `ports` replaces the configured ones (tests). */
      startServers: (ports: IngestServerPorts = {}) =>
        startIngestServers({ ingest, verify, log, config }, ports),
      /**
       * Accepts a file as a camera upload (stream cameras' motion snapshots and clips): stored and committed
       * with its processing job before it resolves, like an FTP upload before its 226.
       */
      acceptUpload: (input: UploadInput) => ingest.acceptUpload(input),
      /**
       * Accepts an event that has no media (a Nest event whose picture had expired): committed with its
       * processing job like an upload, it becomes an activity without a picture.
       */
      acceptWithoutMedia: (input: EventInput) => ingest.acceptWithoutMedia(input),
      /** Where one of the user's uploads stands (still pending, or the activity it became); undefined: gone. */
      uploadOutcome: (userId: string, uploadId: string) => repo.uploadOutcome(userId, uploadId),
    },
    routes: (app, { guards }) =>
      registerIngestRoutes(app, { ingest, verify, guards, maxBytes: config.INGEST_MAX_BYTES }),
    workers: (jobs) => registerIngestWorkers(jobs, { ingest, log }),
    schedule: scheduleIngestJobs,
  } satisfies AppModule<unknown>;
}
export type IngestApi = ReturnType<typeof createIngestModule>['api'];
