import { z } from 'zod';
import {
  CAMERA_CONFIGURATION_ERRORS,
  CAMERA_CONFIGURATION_STATUSES,
  CAMERA_CONNECTION_TYPES,
  CAMERA_NAME_MAX,
  CAMERA_STREAM_STATUSES,
  MOTION_SENSITIVITY_MAX,
  MOTION_SENSITIVITY_MIN,
  CAMERA_NOTES_MAX,
  SITE_NAME_MAX,
} from './cameras.runtime.js';
import { clientDate, multiLineText, pictureFocusSchema, singleLineText } from './common.js';
import { MESSAGES } from './messages.js';

export const cameraConfigurationStatusSchema = z.enum(CAMERA_CONFIGURATION_STATUSES);
export type CameraConfigurationStatus = z.infer<typeof cameraConfigurationStatusSchema>;
export const cameraConnectionTypeSchema = z.enum(CAMERA_CONNECTION_TYPES);
export const cameraStreamStatusSchema = z.enum(CAMERA_STREAM_STATUSES);
const configurationErrorCodes = Object.keys(CAMERA_CONFIGURATION_ERRORS) as [
  keyof typeof CAMERA_CONFIGURATION_ERRORS,
  ...(keyof typeof CAMERA_CONFIGURATION_ERRORS)[],
];
export const cameraConfigurationErrorCodeSchema = z.enum(configurationErrorCodes);

const streamUsername = singleLineText('username', z.string().max(128, 'At most 128 characters'));
const streamPassword = singleLineText('password', z.string().max(256, 'At most 256 characters'));

/** A hostname or an IP address (v4, or v6 with or without brackets): no scheme, path or port. */
const hostSchema = z
  .string({ error: 'host is required' })
  .trim()
  .min(1, 'host is required')
  .max(253, 'host is at most 253 characters')
  .regex(
    /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?)$/,
    'host must be a hostname or an IP address, without scheme or path',
  );

const rtspUrlSchema = singleLineText(
  'url',
  z.string({ error: 'url is required' }).trim().max(2048, 'url is at most 2048 characters'),
).refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'rtsp:' || u.protocol === 'rtsps:') && u.hostname !== '';
  } catch {
    return false;
  }
}, 'url must be an rtsp:// or rtsps:// address, e.g. rtsp://192.168.1.20:554/stream1');

const rtspConnectionSchema = z.strictObject({
  type: z.literal('rtsp'),
  url: rtspUrlSchema,
  username: streamUsername.optional(),
  password: streamPassword.optional(),
});
const onvifConnectionSchema = z.strictObject({
  type: z.literal('onvif'),
  host: hostSchema,
  port: z.number().int().min(1, 'port is 1 to 65535').max(65535, 'port is 1 to 65535').optional(),
  username: streamUsername,
  password: streamPassword,
});

/** A camera's own stream address and login: what the desktop helper tests and configures. */
export const streamConnectionInputSchema = z.discriminatedUnion(
  'type',
  [rtspConnectionSchema, onvifConnectionSchema],
  { error: 'connection.type must be rtsp or onvif' },
);
export type StreamConnectionInput = z.input<typeof streamConnectionInputSchema>;

/** How a stream camera is reached (`POST /api/users/cameras` `connection`). Upload cameras send `upload`. */
export const cameraConnectionInputSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('upload') }),
    rtspConnectionSchema,
    onvifConnectionSchema,
    // Bridged by the owner's desktop helper: it records and uploads; the server never reaches the camera.
    z.strictObject({ type: z.literal('helper') }),
  ],
  { error: 'connection.type must be upload, rtsp, onvif or helper' },
);
export type CameraConnectionInput = z.input<typeof cameraConnectionInputSchema>;

/**
 * A camera name as typed. Emptiness is checked by the server after trimming so that the answer is exactly
 * docs/product.md §5's "Camera name is required".
 */
export const cameraNameInputSchema = singleLineText(
  'name',
  z
    .string({ error: MESSAGES.cameraNameRequired })
    .max(CAMERA_NAME_MAX, `Camera names are at most ${CAMERA_NAME_MAX} characters`),
);

const isoDateTime = clientDate(
  'removed_date_time_utc',
  z.iso.datetime({
    offset: true,
    message: 'Use an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z',
  }),
);

const credentialValue = (label: string) =>
  singleLineText(label, z.string().max(256, 'At most 256 characters')).nullable();

/** docs/product.md §3 camera settings, as a partial update: only the fields sent change (merged). */
export const cameraSettingsPatchSchema = z.strictObject({
  notes: multiLineText(
    'notes',
    z.string().max(CAMERA_NOTES_MAX, `Notes are at most ${CAMERA_NOTES_MAX.toLocaleString('en')} characters`),
  )
    .nullable()
    .optional(),
  is_private_mode_enabled: z.boolean().optional(),
  is_muted: z.boolean().optional(),
  only_unusual_alerts: z.boolean().optional(),
  is_facial_recognition_enabled: z.boolean().optional(),
  username: credentialValue('username').optional(),
  password: credentialValue('password').optional(),
  motion_sensitivity: z
    .number()
    .int('motion_sensitivity is a whole number')
    .min(
      MOTION_SENSITIVITY_MIN,
      `motion_sensitivity is ${MOTION_SENSITIVITY_MIN} to ${MOTION_SENSITIVITY_MAX}`,
    )
    .max(
      MOTION_SENSITIVITY_MAX,
      `motion_sensitivity is ${MOTION_SENSITIVITY_MIN} to ${MOTION_SENSITIVITY_MAX}`,
    )
    .optional(),
});
export type CameraSettingsPatch = z.input<typeof cameraSettingsPatchSchema>;

/** Camera settings as lists show them: the camera's own login is never in a list. */
export const cameraSettingsSchema = z.object({
  notes: z.string().nullable(),
  is_private_mode_enabled: z.boolean(),
  is_muted: z.boolean(),
  only_unusual_alerts: z
    .boolean()
    .describe(
      "Alert only about events that depart from the camera's routine (usual ones are still recorded)",
    ),
  is_facial_recognition_enabled: z.boolean(),
  has_credentials: z.boolean().describe('Whether a camera login is stored (the detail call shows it)'),
  motion_sensitivity: z
    .number()
    .int()
    .describe('Stream cameras: 1 (large movement only) to 10 (the smallest)'),
});
export type CameraSettings = z.infer<typeof cameraSettingsSchema>;

/** docs/product.md §3 "Camera". */
export const cameraSchema = z.object({
  camera_uuid: z.string(),
  name: z.string(),
  settings: cameraSettingsSchema,
  site_uuid: z.string().nullable(),
  removed_date_time_utc: z.string().nullable(),
  last_activity_date_time_utc: z.string().nullable(),
  configuration_status: cameraConfigurationStatusSchema,
  connection_type: cameraConnectionTypeSchema,
  configuration_error: z.string().nullable().describe('Why configuration failed, in words (failed only)'),
  configuration_error_code: cameraConfigurationErrorCodeSchema.nullable(),
  stream_status: cameraStreamStatusSchema.nullable().describe('Stream cameras only; null for upload cameras'),
  stream_error: z.string().nullable().describe('Why the stream is reconnecting, while it is'),
  snapshot_url: z
    .string()
    .nullable()
    .describe(
      'Signed URL of the latest frame (stream cameras) or newest activity thumbnail (upload cameras)',
    ),
  snapshot_date_time_utc: z.string().nullable(),
  snapshot_focus: pictureFocusSchema.describe(
    'Where a cover crop of the snapshot keeps what was detected in it (the centre for a live frame)',
  ),
  created_at: z.string(),
  private_events_today: z
    .number()
    .int()
    .min(0)
    .describe(
      "Events the camera sent today (the owner's time zone) that private mode did not keep; only counted",
    ),
});
export type Camera = z.infer<typeof cameraSchema>;

/** What the owner's detail view shows of a stream camera's connection; never its password. */
export const cameraConnectionSummarySchema = z.object({
  type: z
    .enum(['rtsp', 'onvif', 'helper'])
    .describe('helper: bridged by the desktop helper, which reported what follows'),
  url: z.string().nullable().describe('RTSP and helper: the address without its login'),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  username: z.string().nullable(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  motion_source: z
    .enum(['onvif', 'frames'])
    .nullable()
    .describe('ONVIF motion events, or frame differencing'),
  video: z
    .object({ codec: z.string(), width: z.number().int(), height: z.number().int() })
    .nullable()
    .describe('The recorded (main) stream'),
  has_audio: z.boolean(),
});
export type CameraConnectionSummary = z.infer<typeof cameraConnectionSummarySchema>;

/** The owner's detail view: the settings carry the camera's own login, decrypted. */
export const cameraDetailSchema = cameraSchema.extend({
  settings: cameraSettingsSchema.extend({
    username: z.string().nullable(),
    password: z.string().nullable(),
  }),
  connection: cameraConnectionSummarySchema.nullable(),
});
export type CameraDetail = z.infer<typeof cameraDetailSchema>;

export const cameraNameParamsSchema = z.strictObject({
  name: singleLineText('name', z.string().min(1).max(CAMERA_NAME_MAX)),
});

export const addCameraRequestSchema = z.strictObject({
  name: cameraNameInputSchema,
  site_uuid: z.uuid('site_uuid must be a UUID').nullable().optional(),
  settings: cameraSettingsPatchSchema.optional(),
  connection: cameraConnectionInputSchema.optional(),
});
export type AddCameraRequest = z.input<typeof addCameraRequestSchema>;

/** docs/product.md §7 `update-camera {name, plus changes}`: settings merge; `removed_date_time_utc` soft-removes. */
export const updateCameraRequestSchema = z.strictObject({
  name: singleLineText('name', z.string().min(1, MESSAGES.cameraNameRequired).max(CAMERA_NAME_MAX)),
  settings: cameraSettingsPatchSchema.optional(),
  site_uuid: z.uuid('site_uuid must be a UUID').nullable().optional(),
  removed_date_time_utc: isoDateTime.nullable().optional(),
  configuration_status: cameraConfigurationStatusSchema.optional(),
  connection: cameraConnectionInputSchema
    .optional()
    .describe('A new address or login of a stream camera (configured again), or `upload` to stop pulling it'),
});
export type UpdateCameraRequest = z.input<typeof updateCameraRequestSchema>;

export const renameCameraRequestSchema = z.strictObject({
  current_name: singleLineText(
    'current_name',
    z.string().min(1, MESSAGES.cameraNameRequired).max(CAMERA_NAME_MAX),
  ),
  new_name: cameraNameInputSchema,
});

export const cameraSiteAssociationRequestSchema = z.strictObject({
  camera_name: singleLineText(
    'camera_name',
    z.string().min(1, MESSAGES.cameraNameRequired).max(CAMERA_NAME_MAX),
  ),
  site_uuid: z.uuid('site_uuid must be a UUID').nullable(),
});

/** docs/product.md §3 "Site (property)". */
export const siteSchema = z.object({
  site_uuid: z.string(),
  name: z.string(),
  removed_at: z.string().nullable(),
  created_at: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

const siteName = singleLineText(
  'name',
  z
    .string({ error: 'Property name is required' })
    .trim()
    .min(1, 'Property name is required')
    .max(SITE_NAME_MAX, `Property names are at most ${SITE_NAME_MAX} characters`),
);

export const siteRequestSchema = z.strictObject({ name: siteName });
export const siteParamsSchema = z.strictObject({ siteUuid: z.uuid('siteUuid must be a UUID') });

export const associateAllMemoriesResponseSchema = z.object({
  site_uuid: z.string(),
  associated: z.number().int().describe('Memories newly associated with the property'),
});

/** The per-user login cameras use to upload over FTP and email (docs/product.md §7 camera-email-credentials). */
export const cameraUploadCredentialsSchema = z.object({
  username: z.string(),
  password: z.string(),
  email_address: z.string(),
  smtp_host: z.string(),
  smtp_port: z.number().int(),
  ftp_host: z.string(),
  ftp_port: z.number().int(),
});
export type CameraUploadCredentials = z.infer<typeof cameraUploadCredentialsSchema>;

/**
 * `GET /api/users/cameras/{name}/live`: what the player needs. Stream cameras: a WebSocket of fMP4 fragments
 * for Media Source Extensions and an HLS playlist as the fallback, both signed and expiring. Upload cameras
 * (`mode: snapshot`): their latest snapshot and its time. Nest cameras that stream only over WebRTC
 * (`mode: webrtc`): the browser sends its offer through the server and plays Google's stream directly.
 */
export const cameraLiveSchema = z.object({
  camera_name: z.string(),
  connection_type: cameraConnectionTypeSchema,
  mode: z.enum(['stream', 'snapshot', 'webrtc']),
  stream_status: cameraStreamStatusSchema.nullable(),
  mse_url: z.string().nullable().describe('WebSocket path: the init segment, then fMP4 fragments'),
  hls_url: z.string().nullable().describe('HLS playlist path (fMP4 segments)'),
  mime_type: z
    .string()
    .nullable()
    .describe('For MediaSource.isTypeSupported, e.g. video/mp4; codecs="avc1.64001f"'),
  has_audio: z.boolean(),
  snapshot_url: z.string().nullable(),
  snapshot_date_time_utc: z.string().nullable(),
  expires_at: z.string(),
  notice: z
    .string()
    .nullable()
    .describe(
      "Why the stream cannot start right now, for the viewer (e.g. Google's rate limit on a Nest camera), in the caller's language",
    ),
  retry_after_s: z
    .number()
    .int()
    .nullable()
    .describe('With notice: the player asks again after this many seconds (never sooner)'),
});
export type CameraLive = z.infer<typeof cameraLiveSchema>;

/** An SDP offer or answer is a few kilobytes; anything longer is not one (and is not passed on to Google). */
export const WEBRTC_SDP_MAX = 64 * 1024;

/**
 * `POST /api/users/cameras/{name}/live/webrtc`: the browser's offer for a Nest camera that streams over WebRTC
 * (audio recvonly, video recvonly and a data channel, in that order, as Google requires).
 */
export const webrtcOfferRequestSchema = z.strictObject({
  offer_sdp: z
    .string()
    .min(1, 'The offer is empty')
    .max(WEBRTC_SDP_MAX, `At most ${WEBRTC_SDP_MAX} characters`)
    .refine((sdp) => sdp.startsWith('v=0'), 'Not an SDP offer (it must start with v=0)')
    .describe("The browser's SDP offer"),
});

export const webrtcSessionSchema = z.object({
  session_id: z.string().describe("This server's id of the stream (not Google's)"),
  answer_sdp: z.string().describe("The camera's SDP answer, for setRemoteDescription"),
  expires_at: z.string().describe('When the stream ends unless extended (5 minutes after it began)'),
  extendable: z
    .boolean()
    .describe('false: this camera cannot extend a stream (battery cameras); make a new offer before it ends'),
});
export type WebRtcSession = z.infer<typeof webrtcSessionSchema>;

export const webrtcSessionParamsSchema = z.strictObject({
  name: cameraNameParamsSchema.shape.name,
  sessionId: z.string().min(1).max(64),
});

export const webrtcExtensionSchema = z.object({
  expires_at: z.string().describe('The new end of the stream'),
});
