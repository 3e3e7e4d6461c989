import { join } from 'node:path';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { AnalysisApi } from '../analysis/analysis.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { MemoriesApi } from '../memories/memories.module.js';
import { registerFaceEmbeddingsWorker } from './face-embeddings.jobs.js';
import { createFaceEmbeddingsRepository } from './face-embeddings.repository.js';
import { createFaceEmbeddingsService } from './face-embeddings.service.js';
import { createRecurringFacesRepository } from './recurring-faces.repository.js';
import { createRecurringFacesService } from './recurring-faces.service.js';

// What other modules may use besides the API: rules and errors they share.
export { faceDistance } from './face-match.js';
export { recogniseActivity, recognitionRules, type Recognition } from './recognition.js';

/**
 * Who is who: every face in a people memory's photo becomes an example (`memory.learn-faces`, queued when
 * the photo is added), and corrections add or forbid examples. The matching rules are `recognition.ts`.
 */
export function createRecognitionModule(context: ModuleContext, needs: { vision: VisionEngine }) {
  const faceEmbeddings = createFaceEmbeddingsService({
    repo: createFaceEmbeddingsRepository(context.database.db),
    vision: needs.vision,
    storage: context.storage,
    events: context.events,
    enqueue: (photo) => context.jobs.send('memory.learn-faces', photo),
    log: context.log,
  });
  return {
    api: faceEmbeddings,
    workers: (jobs) => registerFaceEmbeddingsWorker(jobs, faceEmbeddings),
    close: () => faceEmbeddings.close(),
  } satisfies AppModule<unknown>;
}
export type RecognitionApi = ReturnType<typeof createRecognitionModule>['api'];

/** Every hour at :35 (off the highlights' :05 and :10); each owner is offered at their own evening hour. */
export const RECURRING_FACES_CRON = '35 * * * *';

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
    frames: needs.analysis.frames,
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
    workers: (jobs) =>
      jobs.work('recognition.recurring-faces', { concurrency: 1 }, async ({ at }) => {
        await recurring.run(at ? new Date(at) : undefined);
      }),
    schedule: (jobs) => jobs.schedule('recognition.recurring-faces', RECURRING_FACES_CRON, {}),
  } satisfies AppModule<unknown>;
}
export type RecurringFacesApi = ReturnType<typeof createRecurringFacesModule>['api'];
