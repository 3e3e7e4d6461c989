import { z } from 'zod';
import {
  cameraConfigurationErrorCodeSchema,
  cameraConfigurationStatusSchema,
  cameraNameInputSchema,
  streamConnectionInputSchema,
} from './cameras.js';
import type { CameraConfigurationErrorCode, CameraConfigurationStatusValue } from './cameras.runtime.js';
import { singleLineText } from './common.js';

export * from './helper.runtime.js';

/**
 * The desktop helper (`apps/helper`): the local camera backend of docs/product.md §7 that the web app and the public
 * camera test talk to on the owner's own computer, and the link it keeps to the server for bridged cameras.
 */

// ---------------------------------------------------------------------------------------------------------
// The local API (http://127.0.0.1:17429). JSON in and out; errors are `{ error: { code, message } }`.
// ---------------------------------------------------------------------------------------------------------

/** `GET /status`: whether a helper runs here, which one, and whether it is signed in. */
export interface HelperStatus {
  app: 'homesitter-helper';
  version: string;
  signed_in: boolean;
  /** The signed-in account's email, null when signed out. */
  email: string | null;
  /** The Homesitter server the helper registers cameras with. */
  server_url: string;
  /** Cameras this helper records and relays itself (bridged). */
  bridged_cameras: number;
}

/** One device found on the local network. Sent again (same `id`) whenever more is learnt about it. */
export interface DiscoveredDevice {
  /** Stable key within one scan: the IPv4 address. */
  id: string;
  address: string;
  /** From the ARP table where the OS knows it. */
  mac: string | null;
  manufacturer: string | null;
  model: string | null;
  /** A name the device announces (ONVIF `name` scope), if any. */
  name: string | null;
  /** The ONVIF device service, when the device answered WS-Discovery or the ONVIF probe. */
  onvif: { port: number; xaddr: string } | null;
  /** An RTSP server on the device (its URL without a path unless ONVIF gave one). */
  rtsp: { port: number; url: string } | null;
  /** Whether the device asked for a login (RTSP 401, ONVIF NotAuthorized); null while unknown. */
  needs_credentials: boolean | null;
  /** False for a device that answers but is no camera Homesitter can record (docs/product.md §8 unsupported device). */
  supported: boolean;
  /** English reason shown with an unsupported device; `unsupported_code` picks the translated text. */
  unsupported_reason: string | null;
  unsupported_code: 'not_a_camera' | 'no_video_service' | null;
  found_by: ('ws-discovery' | 'port-scan')[];
}

/** `GET /discover` answers NDJSON: one of these per line, as they happen, for at most 60 s. */
export type DiscoveryEvent =
  | { type: 'started'; subnets: string[]; timeout_ms: number }
  | { type: 'device'; device: DiscoveredDevice }
  | { type: 'done'; devices: number; timed_out: boolean };

/** `POST /cameras/test`: try one camera the way configuration would, nothing sent to the server. */
export const helperCameraTestRequestSchema = z.strictObject({
  connection: streamConnectionInputSchema,
});
export type HelperCameraTestRequest = z.input<typeof helperCameraTestRequestSchema>;

export interface HelperVideoInfo {
  codec: string;
  width: number;
  height: number;
  fps: number | null;
}

/**
 * The camera test's answer. `works`: Homesitter can record it. `unsupported`: it answered but offers nothing
 * recordable (`error_code` no_supported_stream, e.g. H.265 only). `failed`: unreachable, wrong login, timed
 * out or an invalid answer (`error_code` says which).
 */
export interface HelperCameraTestResult {
  verdict: 'works' | 'unsupported' | 'failed';
  error_code: CameraConfigurationErrorCode | null;
  /** English sentence for the verdict; the web app shows its own translation by verdict and code. */
  message: string;
  /** `data:image/jpeg;base64,…`, taken within docs/product.md §9's 15 s, null when none could be taken. */
  snapshot: string | null;
  video: HelperVideoInfo | null;
  sub_video: HelperVideoInfo | null;
  audio_codec: string | null;
  device: { manufacturer: string | null; model: string | null; firmware: string | null } | null;
  motion_source: 'onvif' | 'frames' | null;
  elapsed_ms: number;
}

/** `POST /cameras/configure`: configure and register the selected cameras (signed in only). */
export const helperConfigureRequestSchema = z.strictObject({
  cameras: z
    .array(
      z.strictObject({
        device_id: singleLineText(
          'device_id',
          z.string().min(1, 'device_id is required').max(100, 'device_id is at most 100 characters'),
        ),
        name: cameraNameInputSchema,
        site_uuid: z.uuid('site_uuid must be a UUID').nullable().optional(),
        connection: streamConnectionInputSchema,
      }),
    )
    .min(1, 'Select at least one camera')
    .max(32, 'At most 32 cameras at once'),
});
export type HelperConfigureRequest = z.input<typeof helperConfigureRequestSchema>;

/** `POST /jobs/{id}/retry`: again, optionally with corrected credentials or address. */
export const helperRetryRequestSchema = z.strictObject({
  connection: streamConnectionInputSchema.optional(),
});

/**
 * One camera being set up by the helper (docs/product.md §4: pending → configuring → configured | failed, retry).
 * `mode` says who records it once configured: the server pulls it (`server`) or the helper bridges it.
 */
export interface HelperJob {
  id: string;
  device_id: string;
  camera_name: string;
  status: CameraConfigurationStatusValue;
  /** A configuration failure, or `name_taken` / `server_error` when the server refused the camera. */
  error_code: CameraConfigurationErrorCode | 'name_taken' | 'server_error' | null;
  /** English sentence for a failure (the server's message for a refusal). */
  message: string | null;
  mode: 'server' | 'bridge' | null;
  camera_uuid: string | null;
}

/** `GET /jobs` */
export interface HelperJobs {
  jobs: HelperJob[];
}

// ---------------------------------------------------------------------------------------------------------
// The helper's link to the server: an outbound WebSocket, so nothing listens at home.
// ---------------------------------------------------------------------------------------------------------

/** What the helper knows about a camera it bridges; the server shows it like a pulled camera's details. */
export interface HelperCameraDetails {
  /** The camera's address without any login, e.g. `rtsp://192.168.1.20:554/stream1`. */
  address: string;
  device: { manufacturer: string | null; model: string | null; firmware: string | null } | null;
  motion_source: 'onvif' | 'frames';
  video: HelperVideoInfo;
  audio_codec: string | null;
}

export type HelperToServerMessage =
  | { type: 'hello'; helper_id: string; version: string; cameras: string[] }
  | {
      type: 'camera-state';
      camera_uuid: string;
      configuration_status: CameraConfigurationStatusValue;
      configuration_error_code: CameraConfigurationErrorCode | null;
      stream_status: 'connecting' | 'streaming' | 'reconnecting' | null;
      stream_error: string | null;
      details: HelperCameraDetails | null;
    };

/** Largest text message the server reads on the helper's control socket. */
export const HELPER_MESSAGE_MAX_BYTES = 64 * 1024;

const helperText = (max: number) => z.string().max(max, `At most ${max} characters`);
const helperVideoInfoSchema = z.object({
  codec: helperText(32),
  width: z.number().int().min(1).max(16_384),
  height: z.number().int().min(1).max(16_384),
  fps: z.number().positive().max(1_000).nullable(),
});

/** `HelperCameraDetails` as the server checks it (unknown fields are dropped, so newer helpers still talk). */
export const helperCameraDetailsSchema = z.object({
  address: helperText(2048),
  device: z
    .object({
      manufacturer: helperText(200).nullable(),
      model: helperText(200).nullable(),
      firmware: helperText(200).nullable(),
    })
    .nullable(),
  motion_source: z.enum(['onvif', 'frames']),
  video: helperVideoInfoSchema,
  audio_codec: helperText(32).nullable(),
}) satisfies z.ZodType<HelperCameraDetails>;

/** What the server accepts on the control socket: a message that fails this is ignored. */
export const helperToServerMessageSchema: z.ZodType<HelperToServerMessage> = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    helper_id: helperText(100).min(1),
    version: helperText(50).min(1),
    cameras: z.array(helperText(64)).max(1_000),
  }),
  z.object({
    type: z.literal('camera-state'),
    camera_uuid: helperText(64),
    configuration_status: cameraConfigurationStatusSchema,
    configuration_error_code: cameraConfigurationErrorCodeSchema.nullable(),
    stream_status: z.enum(['connecting', 'streaming', 'reconnecting']).nullable(),
    stream_error: helperText(500).nullable(),
    details: helperCameraDetailsSchema.nullable(),
  }),
]);

export interface HelperBridgedCamera {
  camera_uuid: string;
  name: string;
  /** Private mode (the user's or the camera's): the helper records and relays nothing. */
  private: boolean;
  motion_sensitivity: number;
}

export type ServerToHelperMessage =
  /** The whole list of the user's bridged cameras: on connect and whenever it changes. */
  | { type: 'cameras'; cameras: HelperBridgedCamera[] }
  | { type: 'live-start'; camera_uuid: string }
  | { type: 'live-stop'; camera_uuid: string };
