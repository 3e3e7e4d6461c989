import type { VisionEngine } from '../../adapters/vision/vision.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import { registerRecognitionWorkers } from './recognition.jobs.js';
import { createFaceEmbeddingsRepository } from './face-embeddings.repository.js';
import { createFaceEmbeddingsService } from './face-embeddings.service.js';

// What other modules may use besides the API: rules and errors they share.
export {
  faceDistance,
  matchFace,
  FACE_MATCH_MARGIN,
  FACE_MATCH_THRESHOLD,
  type FaceExample,
} from './face-match.js';
export { recogniseActivity, recognitionRules, type Recognition } from './recognition.js';

/**
 * Who is who: every face in a people memory's photo becomes an example (`recognition.learn-faces`, queued when
 * the photo is added), and corrections add or forbid examples. The matching rules are `recognition.ts`.
 */
export function createRecognitionModule(context: ModuleContext, needs: { vision: VisionEngine }) {
  const faceEmbeddings = createFaceEmbeddingsService({
    repo: createFaceEmbeddingsRepository(context.database.db),
    vision: needs.vision,
    storage: context.storage,
    events: context.events,
    enqueue: (photo) => context.jobs.send('recognition.learn-faces', photo),
    log: context.log,
  });
  return {
    api: faceEmbeddings,
    workers: (jobs) => registerRecognitionWorkers(jobs, faceEmbeddings),
    close: () => faceEmbeddings.close(),
  } satisfies AppModule<unknown>;
}
export type RecognitionApi = ReturnType<typeof createRecognitionModule>['api'];
