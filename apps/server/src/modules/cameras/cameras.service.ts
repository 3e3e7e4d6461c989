import {
  endpoints,
  type Camera,
  type CameraConfigurationStatus,
  type CameraDetail,
  type CameraSettingsPatch,
} from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
import { serializeResponse, type SerializedResponse } from '../../platform/http/serialized.js';
import { createReadCache, type ReadCache } from '../../platform/read-cache.js';
import type { SecretBox } from '../../platform/secrets.js';
import { userErrors } from '../users/users.module.js';
import { cameraErrors } from './cameras.errors.js';
import {
  isUniqueViolation,
  type CameraPatch,
  type CameraRow,
  type CamerasRepository,
} from './cameras.repository.js';

export interface CamerasServiceDeps {
  repo: CamerasRepository;
  secrets: SecretBox;
  events: EventBus;
  /** The caller's user id by token subject (remembered on the embedded database, platform/read-cache.ts). */
  userIdOf: (subject: string) => Promise<string | undefined>;
  /**
   * Each user's list response (its JSON bytes), until something changes their cameras (`cameras.changed`,
   * `cameras.stamped`, a new `activity.created`) or the entry's lifetime ends. Without one, every list is
   * read from the database.
   */
  lists?: ReadCache<SerializedResponse>;
  now?: () => Date;
}

interface CameraLogin {
  username: string | null;
  password: string | null;
}

export interface CameraChanges {
  settings?: CameraSettingsPatch | undefined;
  site_uuid?: string | null | undefined;
  removed_date_time_utc?: string | null | undefined;
  configuration_status?: CameraConfigurationStatus | undefined;
}

export function toCamera(row: CameraRow): Camera {
  return {
    camera_uuid: row.id,
    name: row.name,
    settings: {
      notes: row.notes,
      is_private_mode_enabled: row.isPrivateModeEnabled,
      is_muted: row.isMuted,
      is_facial_recognition_enabled: row.isFacialRecognitionEnabled,
      has_credentials: row.credentials !== null,
    },
    site_uuid: row.siteId,
    removed_date_time_utc: row.removedAt?.toISOString() ?? null,
    last_activity_date_time_utc: row.lastActivityAt?.toISOString() ?? null,
    configuration_status: row.configurationStatus,
    created_at: row.createdAt.toISOString(),
  };
}

/** Cameras' rules: unique names per user, merged settings, soft removal, encrypted camera logins. */
export function createCamerasService(deps: CamerasServiceDeps) {
  const { repo, secrets, events } = deps;
  const now = deps.now ?? (() => new Date());
  const lists = deps.lists ?? createReadCache<SerializedResponse>({ enabled: false, ttlMs: 0 });
  // Every write of cameras and properties announces `cameras.changed` after it committed (this service,
  // sites, the upload processing), or `cameras.stamped` for a burst's later files; a new activity moves
  // its camera's last activity time.
  events.on('cameras.changed', ({ userId }) => lists.invalidate(userId));
  events.on('cameras.stamped', ({ userId }) => lists.invalidate(userId));
  events.on('activity.created', ({ userId }) => lists.invalidate(userId));

  async function owner(subject: string) {
    const row = await repo.findOwner(subject);
    if (!row) throw userErrors.notFound();
    return row;
  }

  async function activeCamera(userId: string, name: string): Promise<CameraRow> {
    const row = await repo.findByName(userId, name.trim());
    if (!row || row.removedAt) throw cameraErrors.notFound();
    return row;
  }

  function readLogin(userId: string, stored: string | null): CameraLogin {
    if (!stored) return { username: null, password: null };
    return JSON.parse(secrets.decrypt(stored, userId)) as CameraLogin;
  }

  function cleanName(name: string): string {
    const trimmed = name.trim();
    if (!trimmed) throw cameraErrors.nameRequired();
    return trimmed;
  }

  /** The columns a set of changes writes; checks the rules that need the owner or the current row. */
  async function patchFor(
    user: { id: string; isFacialRecognitionEnabled: boolean },
    changes: CameraChanges,
    current: CameraRow | undefined,
  ): Promise<CameraPatch> {
    const s = changes.settings ?? {};
    if (s.is_facial_recognition_enabled === true && !user.isFacialRecognitionEnabled) {
      throw cameraErrors.facialRecognitionOff();
    }
    if (changes.site_uuid && !(await repo.hasActiveSite(user.id, changes.site_uuid))) {
      throw cameraErrors.siteNotFound();
    }
    const patch: CameraPatch = {};
    if (s.notes !== undefined) patch.notes = s.notes?.trim() ? s.notes : null;
    if (s.is_private_mode_enabled !== undefined) patch.isPrivateModeEnabled = s.is_private_mode_enabled;
    if (s.is_muted !== undefined) patch.isMuted = s.is_muted;
    if (s.is_facial_recognition_enabled !== undefined) {
      patch.isFacialRecognitionEnabled = s.is_facial_recognition_enabled;
      // Turning recognition on for a camera is a consent of its own, recorded like the global one.
      if (s.is_facial_recognition_enabled) patch.facialRecognitionConsentAt = new Date();
    }
    if (s.username !== undefined || s.password !== undefined) {
      const login = readLogin(user.id, current?.credentials ?? null);
      if (s.username !== undefined) login.username = s.username || null;
      if (s.password !== undefined) login.password = s.password || null;
      patch.credentials =
        login.username || login.password ? secrets.encrypt(JSON.stringify(login), user.id) : null;
    }
    if (changes.site_uuid !== undefined) patch.siteId = changes.site_uuid;
    if (changes.removed_date_time_utc !== undefined) {
      patch.removedAt = changes.removed_date_time_utc ? new Date(changes.removed_date_time_utc) : null;
    }
    if (changes.configuration_status !== undefined) patch.configurationStatus = changes.configuration_status;
    return patch;
  }

  async function write(userId: string, cameraId: string, patch: CameraPatch): Promise<CameraRow> {
    try {
      const row = await repo.update(userId, cameraId, patch);
      if (!row) throw cameraErrors.notFound();
      await events.emit('cameras.changed', { userId });
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw cameraErrors.nameTaken();
      throw err;
    }
  }

  return {
    /**
     * The list response of the active cameras by name, as JSON bytes: no query and no serialising at all
     * while the user's cached list is right.
     */
    async listJson(subject: string): Promise<SerializedResponse> {
      const userId = await deps.userIdOf(subject);
      if (!userId) throw userErrors.notFound();
      return lists.get(userId, 'active', async () => ({
        value: serializeResponse(endpoints.listCameras, {
          success: true,
          data: (await repo.listActive(userId)).map(toCamera),
        }),
      }));
    },

    /** The owner's detail view, with the camera's own login decrypted. */
    async get(subject: string, name: string): Promise<CameraDetail> {
      const user = await owner(subject);
      const row = await activeCamera(user.id, name);
      const camera = toCamera(row);
      return { ...camera, settings: { ...camera.settings, ...readLogin(user.id, row.credentials) } };
    },

    /** Adding the name of a removed camera brings that camera back, with the new settings. */
    async add(
      subject: string,
      input: {
        name: string;
        site_uuid?: string | null | undefined;
        settings?: CameraSettingsPatch | undefined;
      },
    ): Promise<Camera> {
      const name = cleanName(input.name);
      const user = await owner(subject);
      const existing = await repo.findByName(user.id, name);
      if (existing && !existing.removedAt) throw cameraErrors.nameTaken();
      const patch = await patchFor(user, { settings: input.settings, site_uuid: input.site_uuid }, undefined);
      if (existing) {
        const defaults: CameraPatch = {
          notes: null,
          isPrivateModeEnabled: false,
          isMuted: false,
          isFacialRecognitionEnabled: false,
          credentials: null,
          siteId: null,
          configurationStatus: 'pending',
        };
        return toCamera(await write(user.id, existing.id, { ...defaults, ...patch, name, removedAt: null }));
      }
      try {
        const row = await repo.insert({ ...patch, userId: user.id, name });
        await events.emit('cameras.changed', { userId: user.id });
        return toCamera(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw cameraErrors.nameTaken();
        throw err;
      }
    },

    /** Spec §7 update-camera: settings merge; a removal date hides the camera. */
    async update(subject: string, name: string, changes: CameraChanges): Promise<Camera> {
      const user = await owner(subject);
      const current = await activeCamera(user.id, name);
      return toCamera(await write(user.id, current.id, await patchFor(user, changes, current)));
    },

    /** Renaming keeps the camera's id, so its settings and activities follow the new name. */
    async rename(subject: string, currentName: string, newName: string): Promise<Camera> {
      const name = cleanName(newName);
      const user = await owner(subject);
      const current = await activeCamera(user.id, currentName);
      if (current.name === name) return toCamera(current);
      if (current.name.toLowerCase() !== name.toLowerCase()) {
        const other = await repo.findByName(user.id, name);
        if (other) throw cameraErrors.nameTaken();
      }
      const row = await write(user.id, current.id, { name });
      await events.emit('camera.renamed', {
        userId: user.id,
        cameraId: row.id,
        from: current.name,
        to: name,
      });
      return toCamera(row);
    },

    async associateSite(subject: string, cameraName: string, siteUuid: string | null): Promise<Camera> {
      const user = await owner(subject);
      const current = await activeCamera(user.id, cameraName);
      return toCamera(
        await write(user.id, current.id, await patchFor(user, { site_uuid: siteUuid }, current)),
      );
    },

    /**
     * For the ingest: an event arrived from this camera. Records the time and, spec §4, brings a removed
     * camera back. `undefined` when the user has no camera of that name.
     */
    async recordActivity(userId: string, cameraName: string, at = now()): Promise<Camera | undefined> {
      const row = await repo.findByName(userId, cameraName.trim());
      if (!row) return undefined;
      return toCamera(await write(userId, row.id, { lastActivityAt: at, removedAt: null }));
    },
  };
}
export type CamerasService = ReturnType<typeof createCamerasService>;
