import { z } from 'zod';
import { cameraConfigurationStatusSchema } from './cameras.js';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope, successOnlySchema } from './envelope.js';
import { NEST_DEVICE_KINDS } from './nest.runtime.js';
import { apiRoutes } from './routes.runtime.js';

/** One Nest device of the linked account and the Homesitter camera made of it. */
export const nestCameraSchema = z.object({
  camera_uuid: z.string(),
  name: z.string().describe('The Homesitter camera name (from customName, else room and type)'),
  kind: z.enum(NEST_DEVICE_KINDS),
  protocols: z
    .array(z.enum(['RTSP', 'WEB_RTC']))
    .describe('What CameraLiveStream supports: RTSP (older wired cameras) and/or WEB_RTC'),
  configuration_status: cameraConfigurationStatusSchema,
});
export type NestCamera = z.infer<typeof nestCameraSchema>;

/** `GET /api/users/nest`: whether this server offers Nest and the caller's linked account. */
export const nestLinkSchema = z.object({
  configured: z
    .boolean()
    .describe('This server has a Device Access project and OAuth client (NEST_PROJECT_ID, NEST_CLIENT_*)'),
  status: z
    .enum(['unlinked', 'linked', 'failed'])
    .describe('failed: Google refused the link (revoked or expired, invalid_grant); Reconnect fixes it'),
  linked_at: z.string().nullable(),
  cameras: z.array(nestCameraSchema),
});
export type NestLink = z.infer<typeof nestLinkSchema>;

export const nestEndpoints = defineEndpoints({
  getNestLink: {
    ...apiRoutes.getNestLink,
    summary:
      "Whether this server offers Google Nest, and the caller's linked Google account with its cameras",
    tags: ['nest'],
    response: okEnvelope(nestLinkSchema),
  },
  linkNest: {
    ...apiRoutes.linkNest,
    summary:
      "Google's consent address (Partner Connections Manager) with a signed, single-use state that expires in " +
      '10 minutes; also what Reconnect opens',
    tags: ['nest'],
    response: okEnvelope(z.object({ url: z.string() })),
  },
  unlinkNest: {
    ...apiRoutes.unlinkNest,
    summary: 'Unlinks the Google account: its tokens are revoked and deleted, its Nest cameras removed',
    tags: ['nest'],
    response: successOnlySchema,
  },
});
