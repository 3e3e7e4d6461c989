import type { UploadOutcome } from './activities.processing.js';
import type { ActivityRef } from './activities.repository.js';

/** What other modules may ask of activities, as `app.activities`. */
export interface ActivitiesApi {
  /** Billing: a subscription became active; the user's uploads held in the last 24 h are processed now. */
  releaseHeld(userId: string): Promise<number>;
  /** Deletes activities with their media (e.g. short-lived ones kept only for an alert). */
  deleteActivities(refs: ActivityRef[]): Promise<number>;
  /** Processes one upload now, as its job would (tools and tests). */
  processUpload(uploadId: string): Promise<UploadOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    activities: ActivitiesApi;
  }
}
