import { join } from 'node:path';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { AnalysisApi } from '../analysis/analysis.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { MemoriesApi } from '../memories/memories.module.js';
import type { RecognitionApi } from '../recognition/recognition.module.js';
import { registerRecurringFacesWorkers, scheduleRecurringFacesJobs } from './recurring-faces.jobs.js';
import { createRecurringFacesRepository } from './recurring-faces.repository.js';
import { createRecurringFacesService } from './recurring-faces.service.js';

export interface RecurringFacesNeeds {
  vision: VisionEngine;
  chat: Pick<ChatApi, 'postAgentMessage'>;
  memories: Pick<MemoriesApi, 'create' | 'addImage'>;
  recognition: Pick<RecognitionApi, 'listForUser'>;
  /** The analysis's own frame reader, so the stored face boxes fit the frames cropped. */
  analysis: AnalysisApi;
}

/**
 * Faces that keep coming back (recurring-faces.service.ts): built after the chat and the memories it talks
 * and writes through; its `answeringFirst` wraps the alerts' corrections for the assistant, so a reply to an
 * offer names or dismisses the face.
 */
export function createRecurringFacesModule(context: ModuleContext, needs: RecurringFacesNeeds) {
  const { config, log } = context;
  const recurring = createRecurringFacesService({
    repo: createRecurringFacesRepository(context.database.db),
    vision: needs.vision,
    // The same frames the analysis looked at (FaceActivity is the activity row as its repository reads it).
    frames: {
      load: async (activity: Parameters<typeof needs.analysis.frames.load>[0]) =>
        (await needs.analysis.frames.load(activity)).frames,
    },
    storage: context.storage,
    chat: needs.chat,
    memories: needs.memories,
    examples: needs.recognition,
    urlTtlSeconds: config.MEDIA_URL_TTL,
    retentionDays: config.RETENTION_DAYS,
    spoolDir: join(config.DATA_DIR, 'photo-spool'),
    log,
  });
  return {
    api: recurring,
    workers: (jobs) => registerRecurringFacesWorkers(jobs, { recurring }),
    schedule: scheduleRecurringFacesJobs,
  } satisfies AppModule<unknown>;
}
export type RecurringFacesApi = ReturnType<typeof createRecurringFacesModule>['api'];
