import type { VisionEngine } from '../../adapters/vision/vision.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { AlertsApi } from '../alerts/alerts.module.js';
import type { MediaApi } from '../media/media.module.js';
import type { RoutineApi } from '../routine/routine.module.js';
import type { RecognitionApi } from '../recognition/recognition.module.js';
import type { WatchesApi } from '../watches/watches.module.js';
import { recognitionRules } from '../recognition/recognition.module.js';
import { createActivityFrames } from './activity-frames.js';
import { registerAnalysisWorker } from './analysis.jobs.js';
import { createAnalysisRepository } from './analysis.repository.js';
import { createAnalysisService } from './analysis.service.js';

export interface AnalysisNeeds {
  vision: VisionEngine;
  media: Pick<MediaApi, 'extractFrames' | 'reportMissing'>;
  recognition: Pick<RecognitionApi, 'listForUser'>;
  activities: Pick<ActivitiesApi, 'loadContext' | 'saveAnalysis' | 'markEphemeral' | 'saveRoutine'>;
  routine: Pick<RoutineApi, 'judge'>;
  alerts: Pick<AlertsApi, 'alertFor'>;
  watches: Pick<WatchesApi, 'activityAnalysed'>;
  /** false: `analysis.analyse` jobs stay queued, so a test sees exactly what processing stored. */
  enabled: boolean;
}

/**
 * The AI's look at every activity (`analysis.analyse`, sent with the activity): frames of its media go
 * through the vision engine, faces, vehicles and animals are recognised, alerts decide what to tell, and the
 * user's watch requests are matched.
 */
export function createAnalysisModule(context: ModuleContext, needs: AnalysisNeeds) {
  const { config, log } = context;
  const frames = createActivityFrames({
    storage: context.storage,
    extractFrames: needs.media.extractFrames,
    maxBytes: config.INGEST_MAX_BYTES,
    onToolMissing: needs.media.reportMissing,
    log,
  });
  const analysis = createAnalysisService({
    repo: createAnalysisRepository(context.database.db),
    activities: needs.activities,
    vision: needs.vision,
    frames,
    recognition: recognitionRules,
    faceExamples: needs.recognition,
    alerts: needs.alerts,
    watches: needs.watches,
    routine: needs.routine,
    log,
  });
  return {
    api: {
      /** The frames of an activity as the analysis reads them (the stored face boxes fit these). */
      frames,
    },
    workers: (jobs) =>
      registerAnalysisWorker(jobs, {
        analysis: needs.enabled ? analysis : undefined,
        concurrency: config.AI_CONCURRENCY,
      }),
    // Closed last of all, after the jobs that use it have drained.
    close: () => needs.vision.close(),
  } satisfies AppModule<unknown>;
}
export type AnalysisApi = ReturnType<typeof createAnalysisModule>['api'];
