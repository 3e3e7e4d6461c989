import { roundedExpiry } from '../../adapters/storage/storage.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { CamerasApi } from '../cameras/cameras.module.js';
import type { MediaApi } from '../media/media.module.js';
import type { RealtimeApi } from '../realtime/realtime.module.js';
import { createAttachmentRefresher } from './activities.attachments.js';
import { loadAnalysisContext } from './activities.context.js';
import { createActivityFindingsRepository } from './activities.findings.repository.js';
import { createActivityMedia } from './activities.media.js';
import { createPosterReplacer } from './activities.poster.js';
import { createUploadProcessor } from './activities.processing.js';
import { createActivityRenderer } from './activities.render.js';
import { createActivitiesRepository, type ActivityRef, type ActivityRow } from './activities.repository.js';
import { registerActivityRoutes } from './activities.routes.js';
import { createActivitiesService } from './activities.service.js';
import { registerActivityWorkers, scheduleActivityJobs } from './activities.jobs.js';

// What other modules may use besides the API: rules and errors they share.
export { ephemeralUntil } from './activities.amnesia.js';
export type { AnalysisContext, CameraContext, OwnerContext } from './activities.context.js';

export interface ActivitiesNeeds {
  cameras: Pick<CamerasApi, 'arrivals'>;
  media: Pick<MediaApi, 'signer' | 'ffmpeg' | 'reportMissing'>;
  realtime: Pick<RealtimeApi, 'publish'>;
}

/**
 * Camera events: stored uploads become activities (`activities.process-upload`, or handed over directly on the
 * embedded database), which are listed, played, deleted and purged after RETENTION_DAYS.
 */
export function createActivitiesModule(context: ModuleContext, needs: ActivitiesNeeds) {
  const { config, log, storage, events, jobs } = context;
  const repo = createActivitiesRepository(context.database.db);
  const findings = createActivityFindingsRepository(context.database.db);
  const renderer = createActivityRenderer({
    storage,
    // Playlists always go through the media route, which signs their segments (filesystem or S3).
    signPlaylist: (key, ttl) => needs.media.signer.url(key, roundedExpiry(ttl)),
    urlTtlSeconds: config.MEDIA_URL_TTL,
    now: () => new Date(),
  });
  const posters = createPosterReplacer({ storage });
  const activities = createActivitiesService({
    repo,
    renderer,
    storage,
    events,
    retentionDays: config.RETENTION_DAYS,
    log,
  });
  const processor = createUploadProcessor({
    repo,
    cameras: needs.cameras.arrivals,
    media: createActivityMedia({
      storage,
      ffmpeg: needs.media.ffmpeg,
      onToolMissing: needs.media.reportMissing,
    }),
    storage,
    jobs,
    events,
    renderer,
    publish: (userId, event) => needs.realtime.publish(userId, 'ActivityCreated', event),
    billingEnabled: config.BILLING_ENABLED,
    aloneConcurrency: config.INGEST_WORKERS,
    // Whatever became of it: ingest's backlog of acknowledged uploads counts on hearing it.
    onSettled: (uploadId) => void events.emit('upload.settled', { uploadId }),
    log,
  });
  // Summaries and caches that read the activity's findings follow them (highlights rewrite that period).
  const updated = (userId: string, activityId: string, occurredAt: Date) =>
    events.emit('activity.updated', { userId, activityId, occurredAt });
  return {
    api: {
      /** Processes one upload now, as its job would (the embedded hand-over, tools and tests). */
      processUpload: (uploadId: string) => processor.process(uploadId),
      /** Billing: a subscription became active; the user's uploads held in the last 24 h are processed now. */
      releaseHeld: (userId: string) => processor.releaseHeld(userId),
      /**
       * The activity with its camera and owner, what the analysis, the alerts and the watches decide by;
       * undefined when the activity is gone (deleted, purged).
       */
      loadContext: (activityId: string) => loadAnalysisContext(context.database.db, activityId),
      /** Deletes activities with their media (e.g. short-lived ones kept only for an alert). */
      deleteActivities: (refs: ActivityRef[]) => activities.deleteActivities(refs),
      /** An activity as the API shows it, with fresh signed URLs. */
      render: (row: ActivityRow) => renderer.render(row),
      /** Chat history's clips get fresh signed URLs (signed URLs expire; history is read for weeks). */
      refreshAttachments: createAttachmentRefresher({ repo, media: (row) => renderer.render(row) }),
      // What the analysis and the alerts write on an activity (`activities` and `activity_faces` are this
      // module's tables): activities.findings.repository.ts.
      /** The analysis' findings, and the activity's faces unless they are null (amnesia), in one transaction. */
      async saveAnalysis(...args: Parameters<typeof findings.saveAnalysis>): Promise<void> {
        await findings.saveAnalysis(...args);
        const [activity, result] = args;
        await updated(activity.userId, activity.id, activity.occurredAt);
        // The camera's card shows its newest event's poster: the owner's apps fetch the list again.
        if (result.posterKey) await events.emit('cameras.changed', { userId: activity.userId });
      },
      /** A clip's best frame stored as its poster, for `saveAnalysis` to put in place (`posterKey`). */
      storePoster: (activity: Parameters<typeof posters.storePoster>[0], frame: Buffer) =>
        posters.storePoster(activity, frame),
      /** Amnesia mode switched on since the activity was made: kept only for its alert, until then. */
      markEphemeral: findings.markEphemeral.bind(findings),
      /** Which alert the activity belongs to (60 s coalescing), decided under a lock on its camera. */
      claimAlert: findings.claimAlert.bind(findings),
      /** A correction names (or un-names) one of the activity's faces. */
      setFaceMemory: findings.setFaceMemory.bind(findings),
      /** A correction's recognised memories and sentences. */
      async updateRecognition(...args: Parameters<typeof findings.updateRecognition>): Promise<void> {
        const occurredAt = await findings.updateRecognition(...args);
        if (occurredAt) await updated(args[0], args[1], occurredAt);
      },
      /** The routine's verdict on an analysed activity (unusual or not). */
      saveRoutine: findings.saveRoutine.bind(findings),
      /** The camera maker's verdict grown by a later message of the event (Nest). */
      addCameraVerdict: findings.addCameraVerdict.bind(findings),
      /** The language model's richer sentences. */
      updateDescriptions: findings.updateDescriptions.bind(findings),
    },
    routes: (app, { guards }) => registerActivityRoutes(app, { activities, guards }),
    workers: (jobs) => registerActivityWorkers(jobs, { processor, activities }),
    schedule: scheduleActivityJobs,
  } satisfies AppModule<unknown>;
}
export type ActivitiesApi = ReturnType<typeof createActivitiesModule>['api'];
