import { mkdir, rm } from 'node:fs/promises';
import type { ConfiguredCamera, StreamStatus } from '@homesitter/cameras';
import {
  HELPER_CONNECT_PATH,
  HELPER_LIVE_PATH,
  MOTION_SENSITIVITY_DEFAULT,
  type HelperBridgedCamera,
  type HelperToServerMessage,
  type StreamConnectionInput,
} from '@homesitter/contract';
import { cameraDetails } from '../cameras/index.js';
import type { ConfigDir } from '../config-dir.js';
import type { Logger } from '../logger.js';
import { webSocketUrl, type ServerApi } from '../server-api/index.js';
import type { Session } from '../session/index.js';
import { startBridgedCamera, type RecordingOptions, type RunningCamera } from './bridged-camera.js';
import { createCameraStore, type BridgedCameraRecord } from './camera-store.js';
import { createControlSocket, type ControlSocket } from './control-socket.js';
import { createIngestUploader } from './ingest-uploader.js';
import { openLiveRelay, type LiveRelay } from './live-relay.js';
import { createUploadSpool, type MotionFileKind } from './upload-spool.js';

export type CameraState = Extract<HelperToServerMessage, { type: 'camera-state' }>;
/** What a configuration job reports while a bridged camera is being set up. */
export type ConfigurationReport = Pick<CameraState, 'configuration_status' | 'configuration_error_code'>;

export interface NewBridgedCamera {
  camera_uuid: string;
  name: string;
  connection: StreamConnectionInput;
  camera: ConfiguredCamera;
}

export interface BridgeOptions {
  serverUrl: string;
  version: string;
  configDir: ConfigDir;
  session: Session;
  serverApi: ServerApi;
  ffmpegPath: string;
  log: Logger;
  recording?: RecordingOptions;
  /** The upload spool's bound (default 2 GB). */
  spoolMaxBytes?: number;
}

/**
 * The bridge: the cameras this helper records and relays for a server that cannot reach them. It keeps
 * them in cameras.json, records each one that is not private with a camera supervisor, spools and uploads
 * their motion, keeps the control socket to the server (hello, camera states, the server's camera list and
 * live requests) and opens a live relay per `live-start`. It runs while the helper is signed in.
 */
export interface Bridge {
  start(): Promise<void>;
  /** A camera a job just configured in bridge mode: stored, reported configured, recorded. */
  adopt(camera: NewBridgedCamera): Promise<void>;
  /** A job's progress or failure for a bridged camera, told to the server. */
  report(cameraUuid: string, report: ConfigurationReport): void;
  /** Bridged cameras of the signed-in account. */
  count(): number;
  /** Stops recording and relaying (signed out); the spool keeps its files for the next sign-in. */
  pause(): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULT_SPOOL_MAX_BYTES = 2 * 1024 ** 3;
/** A camera the server's list lacks is forgotten only once the server can have known about it. */
const NEW_CAMERA_GRACE_MS = 60_000;
/** The server reads a stream error of at most this many characters. */
const STREAM_ERROR_MAX = 500;

export function createBridge(options: BridgeOptions): Bridge {
  const { session, configDir, log } = options;
  const store = createCameraStore(configDir);
  const workDir = configDir.resolve('work');
  const uploader = createIngestUploader({
    serverApi: options.serverApi,
    cameras: store,
    currentUid: () => session.status().uid,
    log,
  });
  const spool = createUploadSpool({
    dir: configDir.resolve('spool'),
    maxBytes: options.spoolMaxBytes ?? DEFAULT_SPOOL_MAX_BYTES,
    upload: (item, signal) => uploader.upload(item, signal),
    log,
  });

  const running = new Map<string, RunningCamera>();
  const relays = new Map<string, LiveRelay>();
  /** The latest state of each camera, sent again whenever the control socket opens. */
  const states = new Map<string, CameraState>();
  /** Cameras the server has listed since this helper started. */
  const listed = new Set<string>();
  /**
   * The server's latest list. It lists a camera from its registration on, and sends the list only when it
   * changes, so a camera adopted after the list arrived takes its privacy from here.
   */
  let serverList = new Map<string, HelperBridgedCamera>();
  /** Motion files on their way into the spool: a stop waits for them. */
  const spooling = new Set<Promise<void>>();
  let control: ControlSocket | undefined;
  let active = false;
  let queue: Promise<unknown> = Promise.resolve();

  const mine = () => {
    const uid = session.status().uid;
    return store.all().filter((camera) => camera.owner_uid === uid);
  };

  /** One change at a time: a burst of messages must not start a camera twice. Failures are logged. */
  function serial(work: () => Promise<void>): Promise<void> {
    const next = queue
      .then(work)
      .catch((err: unknown) => log.error({ err: String(err) }, 'the bridge failed to apply a change'));
    queue = next;
    return next;
  }

  function setState(cameraUuid: string, patch: Omit<CameraState, 'type' | 'camera_uuid'>): void {
    const state: CameraState = { type: 'camera-state', camera_uuid: cameraUuid, ...patch };
    states.set(cameraUuid, state);
    control?.send(state);
  }

  function configuredState(
    record: BridgedCameraRecord,
    stream: { status: StreamStatus; error: string | null } | null,
  ): Omit<CameraState, 'type' | 'camera_uuid'> {
    return {
      configuration_status: 'configured',
      configuration_error_code: null,
      stream_status: stream?.status ?? null,
      stream_error: stream?.error ?? null,
      details: cameraDetails(record.camera),
    };
  }

  function spoolMotion(
    cameraUuid: string,
    kind: MotionFileKind,
    file: { data: Buffer } | { path: string },
  ): void {
    const task = (
      'data' in file
        ? spool.addBuffer(cameraUuid, kind, file.data)
        : spool.addFile(cameraUuid, kind, file.path)
    ).catch((err: unknown) =>
      log.error({ err: String(err), camera: cameraUuid }, 'a motion file could not be spooled'),
    );
    spooling.add(task);
    void task.finally(() => spooling.delete(task));
  }

  function startCamera(record: BridgedCameraRecord): void {
    const cameraLog = log.child({ camera: record.name });
    running.set(
      record.camera_uuid,
      startBridgedCamera({
        record,
        ffmpegPath: options.ffmpegPath,
        workDir,
        recording: options.recording ?? {},
        log: cameraLog,
        events: {
          onStatus: (status, reason) => {
            const current = store.get(record.camera_uuid) ?? record;
            const error = reason ? reason.slice(0, STREAM_ERROR_MAX) : null;
            setState(record.camera_uuid, configuredState(current, { status, error }));
          },
          onMotion: (kind, file) => spoolMotion(record.camera_uuid, kind, file),
        },
      }),
    );
    cameraLog.info({}, 'bridging camera');
  }

  async function stopCamera(cameraUuid: string): Promise<void> {
    relays.get(cameraUuid)?.close();
    relays.delete(cameraUuid);
    const camera = running.get(cameraUuid);
    if (!camera) return;
    running.delete(cameraUuid);
    await camera.stop();
  }

  /** Brings the supervisors in line with the stored cameras: the signed-in account's, not private. */
  async function reconcile(): Promise<void> {
    const wanted = new Map(
      (active ? mine() : []).filter((c) => c.private === false).map((c) => [c.camera_uuid, c]),
    );
    for (const uuid of [...running.keys()]) {
      if (wanted.has(uuid)) continue;
      await stopCamera(uuid);
      const record = store.get(uuid);
      if (record) log.info({ camera: record.name, private: record.private }, 'camera no longer recorded');
      if (record && active) setState(uuid, configuredState(record, null));
    }
    for (const [uuid, record] of wanted) {
      const camera = running.get(uuid);
      if (camera) camera.setSensitivity(record.motion_sensitivity);
      else startCamera(record);
    }
    ensureControl();
  }

  async function applyCameraList(cameras: HelperBridgedCamera[]): Promise<void> {
    serverList = new Map(cameras.map((c) => [c.camera_uuid, c]));
    for (const record of mine()) {
      const server = serverList.get(record.camera_uuid);
      if (server) {
        listed.add(record.camera_uuid);
        await store.update(record.camera_uuid, {
          name: server.name,
          private: server.private,
          motion_sensitivity: server.motion_sensitivity,
        });
        continue;
      }
      const age = Date.now() - Date.parse(record.configured_at);
      if (!listed.has(record.camera_uuid) && age < NEW_CAMERA_GRACE_MS) continue;
      // Deleted on the server: nothing of it stays here, its login included.
      log.info({ camera: record.name }, 'camera removed on the server: no longer bridged');
      await stopCamera(record.camera_uuid);
      await store.remove(record.camera_uuid);
      states.delete(record.camera_uuid);
      listed.delete(record.camera_uuid);
    }
    await reconcile();
  }

  async function startLive(cameraUuid: string): Promise<void> {
    const camera = running.get(cameraUuid);
    if (!camera || relays.has(cameraUuid)) return;
    const token = await session.idToken();
    if (!token || !running.has(cameraUuid) || relays.has(cameraUuid)) return;
    const relay = openLiveRelay({
      url: webSocketUrl(
        options.serverUrl,
        HELPER_LIVE_PATH.replace(':cameraUuid', encodeURIComponent(cameraUuid)),
      ),
      token,
      join: (viewer) => camera.joinLive(viewer),
      onClose: () => {
        if (relays.get(cameraUuid) === relay) relays.delete(cameraUuid);
      },
      log: log.child({ camera: store.get(cameraUuid)?.name ?? cameraUuid }),
    });
    relays.set(cameraUuid, relay);
  }

  function ensureControl(): void {
    if (!active || control || (mine().length === 0 && states.size === 0)) return;
    control = createControlSocket({
      url: webSocketUrl(options.serverUrl, HELPER_CONNECT_PATH),
      token: (fresh) => (fresh ? session.refreshNow() : session.idToken()),
      hello: async () => ({
        type: 'hello',
        helper_id: await configDir.helperId(),
        version: options.version,
        cameras: mine().map((c) => c.camera_uuid),
      }),
      onOpen: () => {
        for (const state of states.values()) control?.send(state);
      },
      onMessage: (message) => {
        if (message.type === 'cameras') void serial(() => applyCameraList(message.cameras));
        else if (message.type === 'live-start') void serial(() => startLive(message.camera_uuid));
        else relays.get(message.camera_uuid)?.close();
      },
      log,
    });
    control.start();
  }

  async function pause(): Promise<void> {
    active = false;
    await serial(async () => {
      await reconcile();
      await control?.stop();
      control = undefined;
      states.clear();
      serverList = new Map();
    });
  }

  session.on('signedIn', () => {
    active = true;
    uploader.reset();
    spool.wake();
    // Signed in again (perhaps as the same account): the control socket goes on with the new token.
    control?.reconnect();
    void serial(reconcile);
  });
  session.on('token', () => control?.reconnect());
  session.on('signedOut', () => void pause());

  return {
    async start() {
      await store.load();
      // Clips half-written when the helper last stopped are of no use.
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true, mode: 0o700 });
      await spool.start();
      active = session.status().signedIn;
      await serial(reconcile);
    },
    async adopt(camera) {
      const uid = session.status().uid;
      if (!uid) throw new Error('signed out while the camera was configured');
      const known = serverList.get(camera.camera_uuid);
      if (known) listed.add(camera.camera_uuid);
      const record: BridgedCameraRecord = {
        ...camera,
        owner_uid: uid,
        // Nothing is recorded until the server has said whether the camera is private.
        private: known?.private ?? null,
        motion_sensitivity: known?.motion_sensitivity ?? MOTION_SENSITIVITY_DEFAULT,
        configured_at: new Date().toISOString(),
      };
      // Configured again: the supervisor restarts with what configuration found this time.
      if (running.has(camera.camera_uuid)) await serial(() => stopCamera(camera.camera_uuid));
      await store.put(record);
      setState(camera.camera_uuid, configuredState(record, null));
      await serial(reconcile);
    },
    report(cameraUuid, report) {
      setState(cameraUuid, { ...report, stream_status: null, stream_error: null, details: null });
      void serial(async () => ensureControl());
    },
    count: () => mine().length,
    pause,
    async stop() {
      await pause();
      while (spooling.size > 0) await Promise.all([...spooling]);
      await spool.stop();
    },
  };
}
