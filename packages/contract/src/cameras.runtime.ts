/** Cameras and properties: the plain values server and browser share (no zod here). */

export const CAMERA_CONFIGURATION_STATUSES = ['pending', 'configuring', 'configured', 'failed'] as const;
export type CameraConfigurationStatusValue = (typeof CAMERA_CONFIGURATION_STATUSES)[number];

export const CAMERA_NAME_MAX = 100;
export const CAMERA_NOTES_MAX = 2_000;
export const SITE_NAME_MAX = 100;

/** Camera upload ports (spec §2 camera setup): FTP and SMTP ingest defaults. */
export const DEFAULT_FTP_PORT = 2121;
export const DEFAULT_INGEST_SMTP_PORT = 2525;
