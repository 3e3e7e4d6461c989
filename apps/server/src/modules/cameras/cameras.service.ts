import {
  CAMERA_CONFIGURATION_ERRORS,
  MOTION_SENSITIVITY_DEFAULT,
  endpoints,
  type Camera,
  type PictureFocus,
  type CameraConfigurationStatus,
  type CameraConnectionInput,
  type CameraDetail,
  type CameraSettingsPatch,
} from '@homesitter/contract';
import {
  CameraConfigurationError,
  type CameraConnection,
  type ConfiguredCamera,
  type NetworkPolicy,
} from '@homesitter/cameras';
import type { EventBus } from '../../platform/events.js';
import { serializeResponse, type SerializedResponse } from '../../platform/http/serialized.js';
import { createReadCache, type ReadCache } from '../../platform/read-cache.js';
import type { SecretBox } from '../../platform/secrets.js';
import { CENTRE, focusOf } from '../media/media.module.js';
import { userErrors } from '../users/users.module.js';
import { cameraErrors } from './cameras.errors.js';
import { readHelperDetails } from './helper-cameras.js';
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
  /** A signed URL of a stored snapshot (the latest frame, or the newest activity's thumbnail). */
  snapshotUrl: (key: string) => Promise<string>;
  /** Per camera name (lower case), the events private mode dropped today (the ingest's count). */
  privateEventsToday?: (userId: string) => Promise<Map<string, number>>;
  /** Where stream cameras may be: an address outside `CAMERA_NETWORKS` is refused before it is stored. */
  networks: NetworkPolicy;
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
  connection?: CameraConnectionInput | undefined;
}

const configurationError = (code: string | null) =>
  code && code in CAMERA_CONFIGURATION_ERRORS
    ? CAMERA_CONFIGURATION_ERRORS[code as keyof typeof CAMERA_CONFIGURATION_ERRORS]
    : null;

/** What makes a camera an upload camera again: no stream connection, nothing learnt about one. */
const UPLOAD_CONNECTION: CameraPatch = {
  connectionType: 'upload',
  connection: null,
  streamConfig: null,
  configurationErrorCode: null,
  streamStatus: null,
  streamError: null,
};

/**
 * Cameras whose snapshot is their newest activity's thumbnail: those that upload their events, those
 * the desktop helper bridges (it uploads their motion the same way; the server takes no frames of them),
 * and Nest cameras (their latest event picture).
 */
const showsActivityThumbnail = (row: CameraRow) =>
  row.connectionType === 'upload' || row.connectionType === 'helper' || row.connectionType === 'nest';

/** The camera as the API shows it; `snapshotUrl` is the signed URL of `row.snapshotKey`, when it has one. */
export function toCamera(
  row: CameraRow,
  snapshotUrl: string | null = null,
  privateEventsToday = 0,
  snapshotFocus: PictureFocus = CENTRE,
): Camera {
  const code = row.configurationErrorCode as keyof typeof CAMERA_CONFIGURATION_ERRORS | null;
  return {
    camera_uuid: row.id,
    name: row.name,
    settings: {
      notes: row.notes,
      is_private_mode_enabled: row.isPrivateModeEnabled,
      is_muted: row.isMuted,
      only_unusual_alerts: row.onlyUnusualAlerts,
      is_facial_recognition_enabled: row.isFacialRecognitionEnabled,
      has_credentials: row.credentials !== null,
      motion_sensitivity: row.motionSensitivity,
    },
    site_uuid: row.siteId,
    removed_date_time_utc: row.removedAt?.toISOString() ?? null,
    last_activity_date_time_utc: row.lastActivityAt?.toISOString() ?? null,
    configuration_status: row.configurationStatus,
    connection_type: row.connectionType,
    configuration_error: row.configurationStatus === 'failed' ? configurationError(code) : null,
    configuration_error_code: row.configurationStatus === 'failed' ? code : null,
    stream_status: row.connectionType === 'upload' ? null : (row.streamStatus ?? 'stopped'),
    stream_error: row.streamStatus === 'reconnecting' ? row.streamError : null,
    snapshot_url: row.snapshotKey ? snapshotUrl : null,
    snapshot_date_time_utc: row.snapshotKey ? (row.snapshotAt?.toISOString() ?? null) : null,
    snapshot_focus: snapshotFocus,
    created_at: row.createdAt.toISOString(),
    private_events_today: privateEventsToday,
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

  /**
   * Cameras as the API shows them, each with its snapshot: the latest frame of a stream camera, the newest
   * activity's thumbnail of an upload camera (read in one query for the lot).
   */
  async function renderAll(rows: CameraRow[]): Promise<Camera[]> {
    const uploads = rows.filter(showsActivityThumbnail).map((r) => r.id);
    const [thumbnails, dropped] = await Promise.all([
      repo.latestThumbnails(uploads),
      rows.length > 0 && deps.privateEventsToday
        ? deps.privateEventsToday(rows[0]!.userId)
        : new Map<string, number>(),
    ]);
    return Promise.all(
      rows.map(async (row) => {
        const thumbnail = thumbnails.get(row.id);
        const shown = thumbnail ? { ...row, snapshotKey: thumbnail.key, snapshotAt: thumbnail.at } : row;
        return toCamera(
          shown,
          shown.snapshotKey ? await deps.snapshotUrl(shown.snapshotKey) : null,
          dropped.get(row.name.toLowerCase()) ?? 0,
          // A stream camera's live frame has no detections: it stays centred.
          thumbnail ? focusOf(thumbnail.objects, thumbnail.width, thumbnail.height) : CENTRE,
        );
      }),
    );
  }

  const render = async (row: CameraRow): Promise<Camera> => (await renderAll([row]))[0]!;

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
    if (s.only_unusual_alerts !== undefined) patch.onlyUnusualAlerts = s.only_unusual_alerts;
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
    if (s.motion_sensitivity !== undefined) patch.motionSensitivity = s.motion_sensitivity;
    return patch;
  }

  /**
   * The columns a stream connection writes: refused with a 400 when its address is outside
   * `CAMERA_NETWORKS` (nothing is stored, nothing connects); stored encrypted; configuration starts.
   */
  async function connectionPatch(
    userId: string,
    connection: CameraConnectionInput | undefined,
  ): Promise<CameraPatch> {
    if (!connection) return {};
    if (connection.type === 'upload') {
      return { ...UPLOAD_CONNECTION, configurationStatus: 'pending', snapshotKey: null, snapshotAt: null };
    }
    if (connection.type === 'helper') {
      // The owner's desktop helper reaches the camera and reports on it: nothing to check or store here.
      return {
        ...UPLOAD_CONNECTION,
        connectionType: 'helper',
        configurationStatus: 'configuring',
        configurationStartedAt: now(),
        streamStatus: 'stopped',
        snapshotKey: null,
        snapshotAt: null,
      };
    }
    const stored = withoutUrlLogin(connection);
    const host = stored.type === 'rtsp' ? new URL(stored.url).hostname : stored.host;
    await checkNetwork(deps.networks, host);
    return {
      connectionType: stored.type,
      connection: secrets.encrypt(JSON.stringify(stored), userId),
      streamConfig: null,
      configurationStatus: 'configuring',
      configurationErrorCode: null,
      configurationStartedAt: now(),
      streamStatus: 'stopped',
      streamError: null,
    };
  }

  async function announceConfiguration(row: CameraRow): Promise<void> {
    // The desktop helper configures the cameras it bridges itself.
    const configuredHere = row.connectionType === 'rtsp' || row.connectionType === 'onvif';
    if (configuredHere && row.configurationStatus === 'configuring') {
      await events.emit('camera.configure', { userId: row.userId, cameraId: row.id });
    }
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
          data: await renderAll(await repo.listActive(userId)),
        }),
      }));
    },

    /** The owner's detail view, with the camera's own login decrypted. */
    async get(subject: string, name: string): Promise<CameraDetail> {
      const user = await owner(subject);
      const row = await activeCamera(user.id, name);
      const camera = await render(row);
      return {
        ...camera,
        settings: { ...camera.settings, ...readLogin(user.id, row.credentials) },
        connection: connectionSummary(row, secrets),
      };
    },

    /** Adding the name of a removed camera brings that camera back, with the new settings. */
    async add(
      subject: string,
      input: {
        name: string;
        site_uuid?: string | null | undefined;
        settings?: CameraSettingsPatch | undefined;
        connection?: CameraConnectionInput | undefined;
      },
    ): Promise<Camera> {
      const name = cleanName(input.name);
      const user = await owner(subject);
      const existing = await repo.findByName(user.id, name);
      if (existing && !existing.removedAt) throw cameraErrors.nameTaken();
      const patch = {
        ...(await patchFor(user, { settings: input.settings, site_uuid: input.site_uuid }, undefined)),
        ...(await connectionPatch(user.id, input.connection)),
      };
      if (existing) {
        const defaults: CameraPatch = {
          notes: null,
          isPrivateModeEnabled: false,
          isMuted: false,
          isFacialRecognitionEnabled: false,
          credentials: null,
          siteId: null,
          configurationStatus: 'pending',
          ...UPLOAD_CONNECTION,
          motionSensitivity: MOTION_SENSITIVITY_DEFAULT,
        };
        const row = await write(user.id, existing.id, { ...defaults, ...patch, name, removedAt: null });
        await announceConfiguration(row);
        return render(row);
      }
      try {
        const row = await repo.insert({ ...patch, userId: user.id, name });
        await events.emit('cameras.changed', { userId: user.id });
        await announceConfiguration(row);
        return render(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw cameraErrors.nameTaken();
        throw err;
      }
    },

    /** docs/product.md §7 update-camera: settings merge; a removal date hides the camera. */
    async update(subject: string, name: string, changes: CameraChanges): Promise<Camera> {
      const user = await owner(subject);
      const current = await activeCamera(user.id, name);
      if (current.connectionType === 'nest' && changes.connection) throw cameraErrors.managedByNest();
      const patch = {
        ...(await patchFor(user, changes, current)),
        ...(await connectionPatch(user.id, changes.connection)),
      };
      const row = await write(user.id, current.id, patch);
      await announceConfiguration(row);
      return render(row);
    },

    /** Renaming keeps the camera's id, so its settings and activities follow the new name. */
    async rename(subject: string, currentName: string, newName: string): Promise<Camera> {
      const name = cleanName(newName);
      const user = await owner(subject);
      const current = await activeCamera(user.id, currentName);
      if (current.name === name) return render(current);
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
      return render(row);
    },

    async associateSite(subject: string, cameraName: string, siteUuid: string | null): Promise<Camera> {
      const user = await owner(subject);
      const current = await activeCamera(user.id, cameraName);
      return render(await write(user.id, current.id, await patchFor(user, { site_uuid: siteUuid }, current)));
    },

    /**
     * For the ingest: an event arrived from this camera. Records the time and, docs/product.md §4, brings a removed
     * camera back. `undefined` when the user has no camera of that name.
     */
    async recordActivity(userId: string, cameraName: string, at = now()): Promise<Camera | undefined> {
      const row = await repo.findByName(userId, cameraName.trim());
      if (!row) return undefined;
      return render(await write(userId, row.id, { lastActivityAt: at, removedAt: null }));
    },

    /**
     * docs/product.md §4 retry: configures a stream camera again (a failed one, or one whose stream keeps failing).
     * Answers at once with `configuring`; the result follows over realtime.
     */
    async configure(subject: string, name: string): Promise<Camera> {
      const user = await owner(subject);
      const current = await activeCamera(user.id, name);
      if (current.connectionType === 'upload') throw cameraErrors.notStreamCamera();
      if (current.connectionType === 'helper') throw cameraErrors.configuredByHelper();
      if (current.connectionType === 'nest') throw cameraErrors.managedByNest();
      const row = await write(user.id, current.id, {
        configurationStatus: 'configuring',
        configurationErrorCode: null,
        configurationStartedAt: now(),
      });
      await announceConfiguration(row);
      return render(row);
    },
  };
}
export type CamerasService = ReturnType<typeof createCamerasService>;

/**
 * An RTSP address typed with its login inside (`rtsp://user:pass@host/…`, as camera manuals print them):
 * the login moves to the connection's fields (those given explicitly win), so the URL shown never holds it.
 */
function withoutUrlLogin(
  connection: Exclude<CameraConnectionInput, { type: 'upload' } | { type: 'helper' }>,
): CameraConnection {
  if (connection.type === 'onvif') return connection;
  const url = new URL(connection.url);
  const username = connection.username || decodeURIComponent(url.username) || undefined;
  const password = connection.password || decodeURIComponent(url.password) || undefined;
  url.username = '';
  url.password = '';
  return { type: 'rtsp', url: url.toString(), username, password };
}

async function checkNetwork(networks: NetworkPolicy, host: string): Promise<void> {
  try {
    await networks.check(host);
  } catch (err) {
    if (err instanceof CameraConfigurationError && err.code === 'network_not_allowed') {
      throw cameraErrors.networkNotAllowed();
    }
    // A name that does not resolve (yet) is the configuration's to report: it tells "unreachable".
  }
}

/** The owner's view of a stream camera's connection: where and what, never its password. */
function connectionSummary(row: CameraRow, secrets: SecretBox): CameraDetail['connection'] {
  if (row.connectionType === 'helper') return helperConnectionSummary(row, secrets);
  if (row.connectionType === 'upload' || !row.connection) return null;
  const connection = JSON.parse(secrets.decrypt(row.connection, row.userId)) as CameraConnection;
  const config = row.streamConfig
    ? (JSON.parse(secrets.decrypt(row.streamConfig, row.userId)) as ConfiguredCamera)
    : null;
  return {
    type: connection.type,
    url: connection.type === 'rtsp' ? connection.url : null,
    host: connection.type === 'onvif' ? connection.host : null,
    port: connection.type === 'onvif' ? (connection.port ?? 80) : null,
    username: connection.username ?? null,
    manufacturer: config?.device?.manufacturer ?? null,
    model: config?.device?.model ?? null,
    motion_source: config?.motionSource ?? null,
    video: config ? config.main.video : null,
    has_audio: config ? config.main.audioCodec !== null : false,
  };
}

/** A bridged camera's summary: what its desktop helper reported (null until it did). */
function helperConnectionSummary(row: CameraRow, secrets: SecretBox): CameraDetail['connection'] {
  const details = readHelperDetails(row, secrets);
  if (!details) return null;
  let host: string | null = null;
  let port: number | null = null;
  try {
    const url = new URL(details.address);
    host = url.hostname.replace(/^\[|\]$/g, '') || null;
    port = url.port ? Number(url.port) : null;
  } catch {
    // An address that is no URL is shown as it is.
  }
  return {
    type: 'helper',
    url: details.address,
    host,
    port,
    username: null,
    manufacturer: details.device?.manufacturer ?? null,
    model: details.device?.model ?? null,
    motion_source: details.motion_source,
    video: { codec: details.video.codec, width: details.video.width, height: details.video.height },
    has_audio: details.audio_codec !== null,
  };
}
