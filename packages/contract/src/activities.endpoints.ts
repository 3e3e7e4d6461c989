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

/** Camera events (issue "Camera event ingest"): the activities list, one activity, a camera's history. */
export const activitiesEndpoints = defineEndpoints({
  listActivities: {
    method: 'GET',
    path: '/api/users/activities',
    access: 'verified',
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
    method: 'GET',
    path: '/api/users/activities/:activity_uuid',
    access: 'verified',
    summary: 'One activity with signed media URLs',
    tags: ['activities'],
    params: activityUuidParamsSchema,
    response: okEnvelope(activitySchema),
  },
  deleteCameraHistory: {
    method: 'DELETE',
    path: '/api/users/cameras/:name/activities',
    access: 'verified',
    summary: "Delete a camera's history: every activity of the camera and its media",
    tags: ['activities'],
    params: cameraNameParamsSchema,
    response: okEnvelope(deleteCameraHistoryResponseSchema),
  },
});
