import type { CameraConfigurationErrorCode, CameraConfigurationStatusValue } from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
import { normalizeCameraName } from './camera-name.js';
import { isUniqueViolation, type CameraRow, type CamerasRepository } from './cameras.repository.js';
import { announceCameraState } from './stream-cameras.js';

/** A Nest camera as the nest module needs it. */
export interface NestCameraRow {
  id: string;
  userId: string;
  name: string;
  configurationStatus: CameraConfigurationStatusValue;
  /** Private mode, the camera's or the owner's global one: no media of it is fetched. */
  isPrivate: boolean;
  removed: boolean;
}

/** Names tried after the wanted one is taken: "Front Door 2", "Front Door 3", … */
const MAX_NAME_SUFFIX = 50;

/**
 * The cameras side of Google Nest cameras: the nest module adds one camera per Nest device, records its
 * configuration status and removes it when the device or the link goes. Each write tells the owner's
 * clients (`cameras.changed` with the camera's state).
 */
export function createNestCameras(deps: { repo: CamerasRepository; events: EventBus }) {
  const { repo, events } = deps;

  const toNest = (row: CameraRow, isGlobalPrivacyModeEnabled = false): NestCameraRow => ({
    id: row.id,
    userId: row.userId,
    name: row.name,
    configurationStatus: row.configurationStatus,
    isPrivate: row.isPrivateModeEnabled || isGlobalPrivacyModeEnabled,
    removed: row.removedAt !== null,
  });

  async function insertUnique(userId: string, wanted: string): Promise<CameraRow> {
    const base = normalizeCameraName(wanted);
    for (let n = 1; n <= MAX_NAME_SUFFIX; n++) {
      const name = n === 1 ? base : `${base} ${n}`;
      const existing = await repo.findByName(userId, name);
      // A removed Nest camera of the same name comes back with its history, as any re-added camera does.
      if (existing?.removedAt && existing.connectionType === 'nest') {
        const row = await repo.update(userId, existing.id, nestDefaults(name));
        if (row) return row;
      }
      if (existing) continue;
      try {
        return await repo.insert({ userId, ...nestDefaults(name) });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new Error(`No free camera name near "${base}"`);
  }

  return {
    /** The user's Nest cameras that are not removed. */
    async ofUser(userId: string): Promise<NestCameraRow[]> {
      const rows = await repo.listStreamCameras({ userId });
      return rows
        .filter((r) => r.camera.connectionType === 'nest')
        .map((r) => toNest(r.camera, r.isGlobalPrivacyModeEnabled));
    },

    /** Adds a Nest camera under a name no camera of the user has (a number is added when it is taken). */
    async add(userId: string, wantedName: string): Promise<NestCameraRow> {
      const row = await insertUnique(userId, wantedName);
      await announceCameraState(events, row);
      return toNest(row);
    },

    /** Records how setting up the camera went; `failed` carries its reason. */
    async setStatus(
      camera: Pick<NestCameraRow, 'id' | 'userId'>,
      status: CameraConfigurationStatusValue,
      errorCode: CameraConfigurationErrorCode | null = null,
    ): Promise<void> {
      const row = await repo.update(camera.userId, camera.id, {
        configurationStatus: status,
        configurationErrorCode: status === 'failed' ? errorCode : null,
      });
      if (row) await announceCameraState(events, row);
    },

    /** Removes the camera like any removed camera (its activities stay until retention ends). */
    async remove(camera: Pick<NestCameraRow, 'id' | 'userId'>, at = new Date()): Promise<void> {
      const row = await repo.update(camera.userId, camera.id, { removedAt: at, streamStatus: 'stopped' });
      if (row) await events.emit('cameras.changed', { userId: camera.userId });
    },
  };
}
export type NestCameras = ReturnType<typeof createNestCameras>;

function nestDefaults(name: string) {
  return {
    name,
    connectionType: 'nest' as const,
    connection: null,
    streamConfig: null,
    configurationStatus: 'configuring' as const,
    configurationErrorCode: null,
    streamStatus: 'stopped' as const,
    streamError: null,
    removedAt: null,
  };
}
