import { CAMERA_NAME_MAX } from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
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
 * comes back, and once per burst of files (not for every snapshot of one event); the later files of a burst
 * announce `cameras.stamped`, for the server's own cache of the list.
 */
/** The statements a round of uploads stamps its cameras with (one each for all of the round's cameras). */
export interface CameraRoundStatements {
  registerCameras(values: { userId: string; name: string; at: Date }[]): Promise<CameraRow[]>;
  stampCameras(values: { cameraId: string; at: Date }[]): Promise<CameraRow[]>;
  camerasNamed(names: { userId: string; name: string }[]): Promise<(CameraRow | undefined)[]>;
}

/** One camera of a round: its name, the row found before (if any) and its newest file's time. */
export interface CameraArrival {
  userId: string;
  name: string;
  existing: CameraRow | undefined;
  at: Date;
}

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

  /** Whether clients should hear of an event at `at`: a camera back from removal, or a new burst. */
  const announces = (before: CameraRow, at: Date) =>
    before.removedAt !== null ||
    at.getTime() - (before.lastActivityAt?.getTime() ?? -Infinity) > deps.quietMs;
  const needsStamp = (before: CameraRow, at: Date) =>
    before.removedAt !== null || (before.lastActivityAt?.getTime() ?? -Infinity) < at.getTime();

  async function touch(userId: string, camera: CameraRow, at: Date): Promise<CameraRow> {
    const patch: CameraPatch = {};
    if (camera.removedAt) patch.removedAt = null;
    const last = camera.lastActivityAt?.getTime() ?? -Infinity;
    if (last < at.getTime()) patch.lastActivityAt = at;
    if (Object.keys(patch).length === 0) return camera;
    const row = (await repo.update(userId, camera.id, patch)) ?? camera;
    const announced = camera.removedAt !== null || at.getTime() - last > deps.quietMs;
    await events.emit(announced ? 'cameras.changed' : 'cameras.stamped', { userId });
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

    /**
     * `arrived` for every camera of a round at once: unknown ones registered in one statement, known ones
     * stamped in another, and each user told once. Answers the cameras in the order asked.
     */
    async arrivedAll(arrivals: CameraArrival[], q: CameraRoundStatements): Promise<CameraRow[]> {
      const rows: (CameraRow | undefined)[] = arrivals.map((a) => a.existing);
      const changedUsers = new Set<string>();
      const unknown = arrivals.flatMap((a, i) => (a.existing ? [] : [i]));
      const registered = await q.registerCameras(unknown.map((i) => arrivals[i]!));
      for (const i of unknown) {
        const a = arrivals[i]!;
        rows[i] = registered.find((r) => r.userId === a.userId && r.name === a.name);
        if (rows[i]) changedUsers.add(a.userId);
      }
      // Registered by another instance (or under another case of the name) since it was looked up: stamped
      // like any known camera.
      const raced = unknown.filter((i) => !rows[i]);
      const found = await q.camerasNamed(raced.map((i) => arrivals[i]!));
      raced.forEach((i, n) => (rows[i] = found[n]));

      const known = arrivals.flatMap((a, i) => {
        const row = rows[i];
        return row && !registered.includes(row) ? [{ a, i, row }] : [];
      });
      const stamped = await q.stampCameras(
        known.filter((k) => needsStamp(k.row, k.a.at)).map((k) => ({ cameraId: k.row.id, at: k.a.at })),
      );
      const stampedUsers = new Set<string>();
      for (const { a, i, row } of known) {
        const after = stamped.find((s) => s.id === row.id);
        rows[i] = after ?? row;
        if (announces(row, a.at)) changedUsers.add(a.userId);
        else if (after) stampedUsers.add(a.userId);
      }
      for (const userId of changedUsers) await events.emit('cameras.changed', { userId });
      for (const userId of stampedUsers)
        if (!changedUsers.has(userId)) await events.emit('cameras.stamped', { userId });
      return rows.map((row, i) => {
        if (!row) throw new Error(`camera ${arrivals[i]!.name} could not be registered`);
        return row;
      });
    },
  };
}
export type UploadCameras = ReturnType<typeof createUploadCameras>;
