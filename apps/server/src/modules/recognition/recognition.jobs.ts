import type { Jobs } from '../../platform/jobs.js';
import type { FaceEmbeddingsService } from './face-embeddings.service.js';

/** One photo at a time: the vision engine queues its work anyway, and photos are rare next to camera events. */
export async function registerRecognitionWorkers(
  jobs: Jobs,
  faceEmbeddings: FaceEmbeddingsService,
): Promise<void> {
  await jobs.work('recognition.learn-faces', { concurrency: 1 }, (photo) => faceEmbeddings.learn(photo));
}
