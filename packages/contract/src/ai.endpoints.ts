import {
  activityCorrectionRequestSchema,
  activityCorrectionResultSchema,
  activityRecognitionSchema,
  activityUuidParamsSchema,
} from './ai.js';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import { apiRoutes } from './routes.runtime.js';

/** Recognition on an activity and the corrections that teach it (issue 7 "Corrections teach it"). */
export const aiEndpoints = defineEndpoints({
  getActivityRecognition: {
    ...apiRoutes.getActivityRecognition,
    summary: 'Who the AI recognised in an activity, and how many faces are still unknown',
    tags: ['ai'],
    params: activityUuidParamsSchema,
    response: okEnvelope(activityRecognitionSchema),
  },
  correctActivityRecognition: {
    ...apiRoutes.correctActivityRecognition,
    summary:
      'Confirm ("that\'s Rose") or reject ("not Rose") a memory on an activity: the face joins the memory\'s examples, or becomes a negative one',
    tags: ['ai'],
    params: activityUuidParamsSchema,
    body: activityCorrectionRequestSchema,
    response: okEnvelope(activityCorrectionResultSchema),
  },
});
