import {
  CAMERA_CONFIGURATION_ERRORS,
  type CameraConfigurationErrorCode,
  type CameraStreamStatus,
} from '@homesitter/contract';
import type { CameraConnection, ConfiguredCamera } from '@homesitter/cameras';
import type { EventBus } from '../../platform/events.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { CameraPatch, CameraRow, CamerasRepository } from './cameras.repository.js';

/**
 * Tells the owner's clients (and this process's caches and modules) that a stream camera's configuration or
 * upstream moved on: `cameras.changed` with the camera's state, which realtime sends as `CamerasChanged`.
 */
export async function announceCameraState(events: EventBus, row: CameraRow): Promise<void> {
  const failed = row.configurationStatus === 'failed';
  const code = failed ? (row.configurationErrorCode as CameraConfigurationErrorCode | null) : null;
  await events.emit('cameras.changed', {
    userId: row.userId,
    camera: {
      name: row.name,
      configuration_status: row.configurationStatus,
      configuration_error: code ? (CAMERA_CONFIGURATION_ERRORS[code] ?? null) : null,
      configuration_error_code: code,
      stream_status: row.streamStatus,
    },
  });
}

/** A stream camera as the streams module needs it: decrypted, with whether it may be pulled. */
export interface StreamCamera {
  id: string;
  userId: string;
  name: string;
  connection: CameraConnection;
  /** What configuration learnt; null until it succeeded. */
  config: ConfiguredCamera | null;
  configurationStatus: CameraRow['configurationStatus'];
  configurationStartedAt: Date | null;
  /** Private mode, the camera's or the owner's global one: nothing is pulled. */
  isPrivate: boolean;
  motionSensitivity: number;
  streamStatus: CameraStreamStatus | null;
  snapshotKey: string | null;
}

/**
 * The cameras side of stream cameras: the streams module reads them and records what happened to them
 * (configuration results, upstream status, the latest frame) through these calls, by camera id. Each write
 * tells the owner's clients (`cameras.changed` with the camera's state).
 */
export function createStreamCameras(deps: { repo: CamerasRepository; secrets: SecretBox; events: EventBus }) {
  const { repo, secrets, events } = deps;

  function decode(row: CameraRow, isGlobalPrivacyModeEnabled: boolean): StreamCamera | undefined {
    // Upload cameras, and cameras the desktop helper bridges (no connection of ours): never pulled.
    if (row.connectionType === 'upload' || row.connectionType === 'helper' || !row.connection)
      return undefined;
    return {
      id: row.id,
      userId: row.userId,
      name: row.name,
      connection: JSON.parse(secrets.decrypt(row.connection, row.userId)) as CameraConnection,
      config: row.streamConfig
        ? (JSON.parse(secrets.decrypt(row.streamConfig, row.userId)) as ConfiguredCamera)
        : null,
      configurationStatus: row.configurationStatus,
      configurationStartedAt: row.configurationStartedAt,
      isPrivate: row.isPrivateModeEnabled || isGlobalPrivacyModeEnabled,
      motionSensitivity: row.motionSensitivity,
      streamStatus: row.streamStatus,
      snapshotKey: row.snapshotKey,
    };
  }

  async function list(filter: { userId?: string; cameraId?: string }): Promise<StreamCamera[]> {
    const rows = await repo.listStreamCameras(filter);
    return rows.flatMap((r) => decode(r.camera, r.isGlobalPrivacyModeEnabled) ?? []);
  }

  async function write(
    cameraId: string,
    patch: CameraPatch,
    announce = true,
  ): Promise<CameraRow | undefined> {
    const row = await repo.updateById(cameraId, patch);
    if (row && announce) await announceCameraState(events, row);
    return row;
  }

  return {
    /** Every stream camera not removed (all users): what a starting server supervises. */
    all: () => list({}),
    /** One user's stream cameras (after their privacy or cameras changed). */
    ofUser: (userId: string) => list({ userId }),
    /** One stream camera, or undefined when it is gone or removed. */
    async find(cameraId: string): Promise<StreamCamera | undefined> {
      return (await list({ cameraId }))[0];
    },

    configured: (cameraId: string, config: ConfiguredCamera, userId: string) =>
      write(cameraId, {
        configurationStatus: 'configured',
        configurationErrorCode: null,
        streamConfig: secrets.encrypt(JSON.stringify(config), userId),
      }),

    failed: (cameraId: string, code: CameraConfigurationErrorCode) =>
      write(cameraId, {
        configurationStatus: 'failed',
        configurationErrorCode: code,
        streamStatus: 'stopped',
      }),

    streamState: (cameraId: string, status: CameraStreamStatus, error: string | null = null) =>
      write(cameraId, { streamStatus: status, streamError: error }),

    /**
     * The latest frame is stored: clients' lists refresh quietly (no realtime message per frame), except for
     * a camera's first picture (`first`), which open screens show at once rather than up to a minute later.
     */
    async snapshot(cameraId: string, key: string | null, at: Date | null, first = false): Promise<void> {
      const row = await write(cameraId, { snapshotKey: key, snapshotAt: at }, first);
      if (row && !first) await events.emit('cameras.stamped', { userId: row.userId });
    },
  };
}
export type StreamCameras = ReturnType<typeof createStreamCameras>;
