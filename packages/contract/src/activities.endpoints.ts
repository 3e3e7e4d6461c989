import { z } from 'zod';
import {
  activitiesPaginationSchema,
  activitySchema,
  deleteCameraHistoryResponseSchema,
  listActivitiesQuerySchema,
} from './activities.js';
import { activityUuidParamsSchema } from './ai.js';
import { cameraNameParamsSchema } from './cameras.js';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import { apiRoutes } from './routes.runtime.js';

/** Camera events (issue "Camera event ingest"): the activities list, one activity, a camera's history. */
export const activitiesEndpoints = defineEndpoints({
  listActivities: {
    ...apiRoutes.listActivities,
    summary: 'Activities (camera events), newest first, by camera, property and time; media as signed URLs',
    tags: ['activities'],
    query: listActivitiesQuerySchema,
    response: z.object({
      success: z.literal(true),
      data: z.array(activitySchema),
      pagination: activitiesPaginationSchema,
    }),
  },
  getActivity: {
    ...apiRoutes.getActivity,
    summary: 'One activity with signed media URLs',
    tags: ['activities'],
    params: activityUuidParamsSchema,
    response: okEnvelope(activitySchema),
  },
  deleteCameraHistory: {
    ...apiRoutes.deleteCameraHistory,
    summary: "Delete a camera's history: every activity of the camera and its media",
    tags: ['activities'],
    params: cameraNameParamsSchema,
    response: okEnvelope(deleteCameraHistoryResponseSchema),
  },
});
