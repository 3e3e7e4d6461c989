import { z } from 'zod';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import { apiRoutes } from './routes.runtime.js';

/** What `POST /api/ingest/events` answers: the uploads it stored, each becoming (part of) an activity. */
export const ingestEventResponseSchema = z.object({
  upload_ids: z.array(z.uuid()).describe('One per accepted file, in the order they were sent'),
});
export type IngestEventResponse = z.infer<typeof ingestEventResponseSchema>;

/**
 * Camera uploads over HTTP (issue "Camera event ingest"). Cameras sign in with the user's camera upload
 * login (HTTP Basic), not a bearer token, so the access guard is the route's own.
 */
export const ingestEndpoints = defineEndpoints({
  ingestEvent: {
    ...apiRoutes.ingestEvent,
    summary:
      "Camera upload: multipart/form-data with `camera_name` and one or more `file` (JPEG, PNG, MP4/MOV H.264/H.265, MKV, AVI; each at most INGEST_MAX_BYTES), HTTP Basic auth with the user's camera upload login. 202 once every file is stored and queued; anything not acceptable refuses the whole request (400/413) and keeps nothing",
    tags: ['ingest'],
    response: okEnvelope(ingestEventResponseSchema),
    successStatus: 202,
  },
});
