/** Cameras and properties: the plain values server and browser share (no zod here). */

export const CAMERA_CONFIGURATION_STATUSES = ['pending', 'configuring', 'configured', 'failed'] as const;
export type CameraConfigurationStatusValue = (typeof CAMERA_CONFIGURATION_STATUSES)[number];

export const CAMERA_NAME_MAX = 100;
export const CAMERA_NOTES_MAX = 2_000;
export const SITE_NAME_MAX = 100;

/** Camera upload ports (docs/product.md §2 camera setup): FTP and SMTP ingest defaults. */
export const DEFAULT_FTP_PORT = 2121;
export const DEFAULT_INGEST_SMTP_PORT = 2525;

/**
 * How a camera reaches us: it uploads files (FTP, email, HTTP), we pull its RTSP / ONVIF stream, the
 * owner's desktop helper bridges it (records and uploads at home, relays live view on demand), or it is a
 * Google Nest device of the owner's linked Google account (docs/nest.md).
 */
export const CAMERA_CONNECTION_TYPES = ['upload', 'rtsp', 'onvif', 'helper', 'nest'] as const;
export type CameraConnectionType = (typeof CAMERA_CONNECTION_TYPES)[number];

/**
 * The supervised upstream of a configured stream camera: `connecting` (first connection), `streaming`,
 * `reconnecting` (lost; retried with backoff, `stream_error` says why), `private` (private mode, global or
 * the camera's: nothing is pulled), `stopped` (not configured).
 */
export const CAMERA_STREAM_STATUSES = [
  'connecting',
  'streaming',
  'reconnecting',
  'private',
  'stopped',
] as const;
export type CameraStreamStatus = (typeof CAMERA_STREAM_STATUSES)[number];

/** Why a stream camera's configuration failed: `configuration_error_code` and its English text. */
export const CAMERA_CONFIGURATION_ERRORS = {
  unreachable:
    'The camera could not be reached at this address. Check the address and that it is switched on.',
  wrong_credentials: 'The camera refused the username or password.',
  no_supported_stream: 'The camera offers no H.264 video stream that can be recorded.',
  timed_out: 'The camera did not answer in time (30 seconds).',
  network_not_allowed: 'This server may not connect to that address (CAMERA_NETWORKS).',
  // The server answers `unreachable` instead (a closed port and a non-camera look the same to the owner);
  // the helper, configuring cameras of its own home network, still tells them apart.
  invalid_response: 'The camera answered in a way that is not ONVIF or RTSP.',
  nest_link_lost: 'Google refused the link to your Nest account (revoked or expired). Reconnect Google Nest.',
  nest_unavailable:
    'Google could not be reached to set up this Nest camera. It is tried again in a few minutes.',
} as const;
export type CameraConfigurationErrorCode = keyof typeof CAMERA_CONFIGURATION_ERRORS;

/** Motion sensitivity per stream camera: 1 (only large, clear movement) to 10 (the smallest change). */
export const MOTION_SENSITIVITY_MIN = 1;
export const MOTION_SENSITIVITY_MAX = 10;
export const MOTION_SENSITIVITY_DEFAULT = 6;

/** Signed live-view URLs last this long; the player asks again for a new set before they end. */
export const LIVE_URL_TTL_S = 10 * 60;
