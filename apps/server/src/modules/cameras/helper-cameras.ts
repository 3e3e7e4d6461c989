import { addressWithoutLogin } from '@homesitter/cameras';
import type {
  CameraConfigurationErrorCode,
  CameraConfigurationStatusValue,
  CameraStreamStatus,
  HelperCameraDetails,
} from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { CameraPatch, CameraRow, CamerasRepository, StreamCameraRow } from './cameras.repository.js';
import { announceCameraState } from './stream-cameras.js';

/** A camera the owner's desktop helper bridges, as the helper module needs it. */
export interface HelperCamera {
  id: string;
  userId: string;
  name: string;
  /** Private mode, the camera's or the owner's global one: the helper records and relays nothing. */
  isPrivate: boolean;
  motionSensitivity: number;
  configurationStatus: CameraConfigurationStatusValue;
  streamStatus: CameraStreamStatus | null;
  streamError: string | null;
}

/** What is written of a helper's `camera-state` (the stream status as the server shows it). */
export interface HelperCameraState {
  configurationStatus: CameraConfigurationStatusValue;
  configurationErrorCode: CameraConfigurationErrorCode | null;
  streamStatus: CameraStreamStatus;
  streamError: string | null;
  /** Null keeps what the helper reported before. */
  details: HelperCameraDetails | null;
}

/** The details a helper reported of one of its cameras (stored encrypted), or null before any. */
export function readHelperDetails(row: CameraRow, secrets: SecretBox): HelperCameraDetails | null {
  if (row.connectionType !== 'helper' || !row.streamConfig) return null;
  return JSON.parse(secrets.decrypt(row.streamConfig, row.userId)) as HelperCameraDetails;
}

/**
 * The cameras side of cameras bridged by the desktop helper: the helper module reads them and records what
 * the helper reports and whether it is connected, scoped by the owner's id. Each write that changes
 * something tells the owner's clients (`cameras.changed` with the camera's state, as for pulled cameras).
 */
export function createHelperCameras(deps: { repo: CamerasRepository; secrets: SecretBox; events: EventBus }) {
  const { repo, secrets, events } = deps;

  function decode({ camera: row, isGlobalPrivacyModeEnabled }: StreamCameraRow): HelperCamera | undefined {
    if (row.connectionType !== 'helper') return undefined;
    return {
      id: row.id,
      userId: row.userId,
      name: row.name,
      isPrivate: row.isPrivateModeEnabled || isGlobalPrivacyModeEnabled,
      motionSensitivity: row.motionSensitivity,
      configurationStatus: row.configurationStatus,
      streamStatus: row.streamStatus,
      streamError: row.streamError,
    };
  }

  async function rows(filter: { userId?: string; cameraId?: string }): Promise<StreamCameraRow[]> {
    return (await repo.listStreamCameras(filter)).filter((r) => r.camera.connectionType === 'helper');
  }

  async function write(userId: string, cameraId: string, patch: CameraPatch): Promise<boolean> {
    if (Object.keys(patch).length === 0) return false;
    const row = await repo.updateHelperCamera(userId, cameraId, patch);
    if (row) await announceCameraState(events, row);
    return row !== undefined;
  }

  return {
    /** Every helper camera not removed (all users): what a starting server looks at. */
    all: async () => (await rows({})).flatMap((r) => decode(r) ?? []),
    /** One user's helper cameras, not removed. */
    ofUser: async (userId: string) => (await rows({ userId })).flatMap((r) => decode(r) ?? []),

    /**
     * Records a helper's report of one of the user's helper cameras; only what changed is written (a helper
     * repeats itself). Answers whether the camera was written.
     */
    async report(userId: string, cameraId: string, state: HelperCameraState): Promise<boolean> {
      const [current] = await rows({ userId, cameraId });
      if (!current) return false;
      const row = current.camera;
      const code = state.configurationStatus === 'failed' ? state.configurationErrorCode : null;
      const error = state.streamStatus === 'reconnecting' ? state.streamError : null;
      const patch: CameraPatch = {};
      if (row.configurationStatus !== state.configurationStatus) {
        patch.configurationStatus = state.configurationStatus;
      }
      if ((row.configurationErrorCode ?? null) !== code) patch.configurationErrorCode = code;
      if (row.streamStatus !== state.streamStatus) patch.streamStatus = state.streamStatus;
      if ((row.streamError ?? null) !== error) patch.streamError = error;
      if (state.details) {
        const details = { ...state.details, address: addressWithoutLogin(state.details.address) };
        const json = JSON.stringify(details);
        if (JSON.stringify(readHelperDetails(row, secrets)) !== json) {
          patch.streamConfig = secrets.encrypt(json, userId);
        }
      }
      return write(userId, cameraId, patch);
    },

    /** The server's own word on a helper camera's stream: private, or its helper not connected. */
    async streamState(
      camera: Pick<HelperCamera, 'id' | 'userId' | 'streamStatus' | 'streamError'>,
      status: CameraStreamStatus,
      error: string | null = null,
    ): Promise<boolean> {
      if (camera.streamStatus === status && (camera.streamError ?? null) === error) return false;
      return write(camera.userId, camera.id, { streamStatus: status, streamError: error });
    },
  };
}
export type HelperCameras = ReturnType<typeof createHelperCameras>;
