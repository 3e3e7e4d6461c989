import { CAMERA_NAME_MAX } from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
import '../cameras/cameras.events.js';
import {
  isUniqueViolation,
  type CameraPatch,
  type CameraRow,
  type CamerasRepository,
} from '../cameras/cameras.repository.js';

/** Camera name of an upload that named none (the ingest's own fallback is the same). */
export const FALLBACK_CAMERA_NAME = 'Camera';

/** The name an upload gives, as a camera name: trimmed, bounded, never empty. */
export function uploadCameraName(name: string): string {
  return name.trim().slice(0, CAMERA_NAME_MAX).trim() || FALLBACK_CAMERA_NAME;
}

/**
 * The cameras side of an arriving event (spec §4): an unknown name registers the camera, a removed camera
 * reappears, and the last activity time moves on. Clients hear `cameras.changed` when a camera appears or
 * comes back, and once per burst of files (not for every snapshot of one event).
 */
export function createUploadCameras(deps: { repo: CamerasRepository; events: EventBus; quietMs: number }) {
  const { repo, events } = deps;

  async function register(userId: string, name: string, at: Date): Promise<CameraRow> {
    try {
      const row = await repo.insert({ userId, name, lastActivityAt: at });
      await events.emit('cameras.changed', { userId });
      return row;
    } catch (err) {
      // Two files of a new camera at once: the unique lower(name) index lets one insert win; use its row.
      if (!isUniqueViolation(err)) throw err;
      const row = await repo.findByName(userId, name);
      if (!row) throw err;
      return touch(userId, row, at);
    }
  }

  async function touch(userId: string, camera: CameraRow, at: Date): Promise<CameraRow> {
    const patch: CameraPatch = {};
    if (camera.removedAt) patch.removedAt = null;
    const last = camera.lastActivityAt?.getTime() ?? -Infinity;
    if (last < at.getTime()) patch.lastActivityAt = at;
    if (Object.keys(patch).length === 0) return camera;
    const row = (await repo.update(userId, camera.id, patch)) ?? camera;
    if (camera.removedAt || at.getTime() - last > deps.quietMs)
      await events.emit('cameras.changed', { userId });
    return row;
  }

  return {
    /** The user's camera of this name, any case, removed or not. */
    find: (userId: string, name: string) => repo.findByName(userId, name),

    /** Registers, restores and stamps the camera an event at `at` came from. */
    async arrived(
      userId: string,
      name: string,
      existing: CameraRow | undefined,
      at: Date,
    ): Promise<CameraRow> {
      return existing ? touch(userId, existing, at) : register(userId, name, at);
    },
  };
}
export type UploadCameras = ReturnType<typeof createUploadCameras>;
