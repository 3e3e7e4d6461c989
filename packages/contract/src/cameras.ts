import { z } from 'zod';
import {
  CAMERA_CONFIGURATION_STATUSES,
  CAMERA_NAME_MAX,
  CAMERA_NOTES_MAX,
  SITE_NAME_MAX,
} from './cameras.runtime.js';
import { MESSAGES } from './messages.js';

export const cameraConfigurationStatusSchema = z.enum(CAMERA_CONFIGURATION_STATUSES);
export type CameraConfigurationStatus = z.infer<typeof cameraConfigurationStatusSchema>;

/**
 * A camera name as typed. Emptiness is checked by the server after trimming so that the answer is exactly
 * spec §5's "Camera name is required".
 */
export const cameraNameInputSchema = z
  .string({ error: MESSAGES.cameraNameRequired })
  .max(CAMERA_NAME_MAX, `Camera names are at most ${CAMERA_NAME_MAX} characters`);

const isoDateTime = z.iso.datetime({
  offset: true,
  message: 'Use an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z',
});

const credentialValue = z.string().max(256, 'At most 256 characters').nullable();

/** Spec §3 camera settings, as a partial update: only the fields sent change (merged). */
export const cameraSettingsPatchSchema = z.strictObject({
  notes: z
    .string()
    .max(CAMERA_NOTES_MAX, `Notes are at most ${CAMERA_NOTES_MAX.toLocaleString('en')} characters`)
    .nullable()
    .optional(),
  is_private_mode_enabled: z.boolean().optional(),
  is_muted: z.boolean().optional(),
  is_facial_recognition_enabled: z.boolean().optional(),
  username: credentialValue.optional(),
  password: credentialValue.optional(),
});
export type CameraSettingsPatch = z.input<typeof cameraSettingsPatchSchema>;

/** Camera settings as lists show them: the camera's own login is never in a list. */
export const cameraSettingsSchema = z.object({
  notes: z.string().nullable(),
  is_private_mode_enabled: z.boolean(),
  is_muted: z.boolean(),
  is_facial_recognition_enabled: z.boolean(),
  has_credentials: z.boolean().describe('Whether a camera login is stored (the detail call shows it)'),
});
export type CameraSettings = z.infer<typeof cameraSettingsSchema>;

/** Spec §3 "Camera". */
export const cameraSchema = z.object({
  camera_uuid: z.string(),
  name: z.string(),
  settings: cameraSettingsSchema,
  site_uuid: z.string().nullable(),
  removed_date_time_utc: z.string().nullable(),
  last_activity_date_time_utc: z.string().nullable(),
  configuration_status: cameraConfigurationStatusSchema,
  created_at: z.string(),
});
export type Camera = z.infer<typeof cameraSchema>;

/** The owner's detail view: the settings carry the camera's own login, decrypted. */
export const cameraDetailSchema = cameraSchema.extend({
  settings: cameraSettingsSchema.extend({
    username: z.string().nullable(),
    password: z.string().nullable(),
  }),
});
export type CameraDetail = z.infer<typeof cameraDetailSchema>;

export const cameraNameParamsSchema = z.strictObject({ name: z.string().min(1).max(CAMERA_NAME_MAX) });

export const addCameraRequestSchema = z.strictObject({
  name: cameraNameInputSchema,
  site_uuid: z.uuid('site_uuid must be a UUID').nullable().optional(),
  settings: cameraSettingsPatchSchema.optional(),
});
export type AddCameraRequest = z.input<typeof addCameraRequestSchema>;

/** Spec §7 `update-camera {name, plus changes}`: settings merge; `removed_date_time_utc` soft-removes. */
export const updateCameraRequestSchema = z.strictObject({
  name: z.string().min(1, MESSAGES.cameraNameRequired).max(CAMERA_NAME_MAX),
  settings: cameraSettingsPatchSchema.optional(),
  site_uuid: z.uuid('site_uuid must be a UUID').nullable().optional(),
  removed_date_time_utc: isoDateTime.nullable().optional(),
  configuration_status: cameraConfigurationStatusSchema.optional(),
});
export type UpdateCameraRequest = z.input<typeof updateCameraRequestSchema>;

export const renameCameraRequestSchema = z.strictObject({
  current_name: z.string().min(1, MESSAGES.cameraNameRequired).max(CAMERA_NAME_MAX),
  new_name: cameraNameInputSchema,
});

export const cameraSiteAssociationRequestSchema = z.strictObject({
  camera_name: z.string().min(1, MESSAGES.cameraNameRequired).max(CAMERA_NAME_MAX),
  site_uuid: z.uuid('site_uuid must be a UUID').nullable(),
});

/** Spec §3 "Site (property)". */
export const siteSchema = z.object({
  site_uuid: z.string(),
  name: z.string(),
  removed_at: z.string().nullable(),
  created_at: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

const siteName = z
  .string({ error: 'Property name is required' })
  .trim()
  .min(1, 'Property name is required')
  .max(SITE_NAME_MAX, `Property names are at most ${SITE_NAME_MAX} characters`);

export const siteRequestSchema = z.strictObject({ name: siteName });
export const siteParamsSchema = z.strictObject({ siteUuid: z.uuid('siteUuid must be a UUID') });

export const associateAllMemoriesResponseSchema = z.object({
  site_uuid: z.string(),
  associated: z.number().int().describe('Memories newly associated with the property'),
});

/** The per-user login cameras use to upload over FTP and email (spec §7 camera-email-credentials). */
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
