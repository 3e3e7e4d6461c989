import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MotionClip, StreamStatus } from '@homesitter/cameras';
import type { CameraStreamStatus } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { Logger } from '../../platform/logger.js';
import type { StreamCamera, StreamCameras } from '../cameras/cameras.module.js';
import type { IngestApi } from '../ingest/ingest.module.js';
import { userMediaPrefix } from '../media/media.module.js';
import type { CameraPipe, CameraPipeFactory } from './streams.pipe.js';

export interface SupervisionDeps {
  cameras: StreamCameras;
  ingest: Pick<IngestApi, 'acceptUpload'>;
  storage: ObjectStorage;
  log: Logger;
  /** Where motion snapshots and clips wait for the ingest (removed once it took them). */
  workDir: string;
  createPipe: CameraPipeFactory;
}

interface Supervised {
  camera: StreamCamera;
  pipe: CameraPipe;
  /** The configuration the pipe runs with: a new one (reconfigured) restarts it. */
  fingerprint: string;
  status: CameraStreamStatus;
  stopListening: () => void;
}

const fingerprintOf = (camera: StreamCamera) => JSON.stringify(camera.config);

/**
 * Keeps one supervised pipe per stream camera that should be pulled (configured, not private, not removed)
 * and none for the others, and carries what the pipes see where it belongs: motion snapshots and clips to the
 * ingest (the same path as an uploaded event), the latest frame to the camera card, the upstream status to
 * the camera. `sync` is idempotent: every change of cameras or privacy calls it.
 */
export function createSupervision(deps: SupervisionDeps) {
  const { cameras, log } = deps;
  const supervised = new Map<string, Supervised>();
  let closed = false;
  // Motion files on their way to the ingest: a shutdown waits for them (a clip finished by `stop` included).
  const inFlight = new Set<Promise<void>>();
  // Syncs of one user run one after another: a burst of changes must not start a camera twice.
  let queue: Promise<unknown> = Promise.resolve();

  const shouldPull = (camera: StreamCamera) =>
    camera.configurationStatus === 'configured' && camera.config !== null && !camera.isPrivate;

  async function setStatus(
    entry: Supervised | undefined,
    cameraId: string,
    status: CameraStreamStatus,
    error?: string,
  ) {
    if (entry) {
      if (entry.status === status && status !== 'reconnecting') return;
      entry.status = status;
    }
    await cameras.streamState(cameraId, status, error ?? null);
  }

  const snapshotFolder = (camera: StreamCamera) => `${userMediaPrefix(camera.userId)}/snapshots`;

  /**
   * Removes a camera's stored frames except `keep`. Frames left behind by a crash between storing a new one and
   * removing the old go here too, the next time the camera stores one.
   */
  async function removeSnapshots(camera: StreamCamera, keep: (string | null)[]): Promise<void> {
    const own = `${snapshotFolder(camera)}/${camera.id}-`;
    for await (const { key } of deps.storage.list(snapshotFolder(camera))) {
      if (key.startsWith(own) && !keep.includes(key)) await deps.storage.delete(key);
    }
  }

  async function storeSnapshot(camera: StreamCamera, jpeg: Buffer, at: Date): Promise<void> {
    const key = `${snapshotFolder(camera)}/${camera.id}-${at.getTime()}.jpg`;
    await deps.storage.put(key, jpeg, 'image/jpeg');
    const previous = supervised.get(camera.id)?.camera.snapshotKey ?? camera.snapshotKey;
    await cameras.snapshot(camera.id, key, at, previous === null);
    const entry = supervised.get(camera.id);
    if (entry) entry.camera = { ...entry.camera, snapshotKey: key };
    // The previous frame stays one more round: a client that listed the cameras a moment ago holds its URL,
    // and the first frames of a new connection come seconds apart ("Snapshot unavailable" would flash).
    await removeSnapshots(camera, [key, previous]);
  }

  /** Private mode keeps no frame, the previous one included. */
  async function clearSnapshot(camera: StreamCamera): Promise<void> {
    if (!camera.snapshotKey) return;
    await cameras.snapshot(camera.id, null, null);
    await removeSnapshots(camera, []);
  }

  /** Hands a motion file to the ingest as the camera's upload; the file is ours and removed after. */
  async function submit(camera: StreamCamera, file: string, name: string, occurredAt: Date): Promise<void> {
    try {
      await deps.ingest.acceptUpload({
        userId: camera.userId,
        cameraName: camera.name,
        source: 'stream',
        originalName: name,
        file,
        occurredAt,
      });
    } catch (err) {
      log.warn({ err, cameraId: camera.id }, 'stream camera event not accepted');
    } finally {
      await rm(file, { force: true });
    }
  }

  async function onMotionStart(entry: Supervised, jpeg: Buffer, at: Date): Promise<void> {
    const file = join(deps.workDir, `${randomUUID()}.jpg`);
    await mkdir(deps.workDir, { recursive: true });
    await writeFile(file, jpeg);
    await submit(entry.camera, file, 'motion.jpg', at);
  }

  async function onClip(entry: Supervised, clip: MotionClip): Promise<void> {
    await submit(entry.camera, clip.path, 'motion.mp4', clip.startedAt);
  }

  function start(camera: StreamCamera): void {
    const pipe = deps.createPipe(camera);
    const entry: Supervised = {
      camera,
      pipe,
      fingerprint: fingerprintOf(camera),
      status: camera.streamStatus ?? 'stopped',
      stopListening: () => undefined,
    };
    const guard = (what: string, work: Promise<void>) => {
      const tracked = work.catch((err: unknown) =>
        log.warn({ err, cameraId: camera.id }, `stream camera ${what} failed`),
      );
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
    };
    const offs = [
      pipe.on('status', (status: StreamStatus, reason?: string) =>
        guard('status', setStatus(entry, camera.id, status, reason)),
      ),
      pipe.on('snapshot', (jpeg: Buffer, at: Date) =>
        guard('snapshot', storeSnapshot(entry.camera, jpeg, at)),
      ),
      pipe.on('motionStart', (jpeg: Buffer, at: Date) => guard('motion', onMotionStart(entry, jpeg, at))),
      pipe.on('clip', (clip: MotionClip) => guard('clip', onClip(entry, clip))),
    ];
    entry.stopListening = () => offs.forEach((off) => off());
    supervised.set(camera.id, entry);
    pipe.start();
    void setStatus(entry, camera.id, 'connecting').catch(() => undefined);
    log.info({ cameraId: camera.id }, 'stream camera supervised');
  }

  async function stop(cameraId: string): Promise<void> {
    const entry = supervised.get(cameraId);
    if (!entry) return;
    supervised.delete(cameraId);
    entry.stopListening();
    await entry.pipe.stop();
  }

  /** At shutdown: the clip a pipe finishes while stopping still goes to the ingest. */
  async function stopKeepingListeners(cameraId: string): Promise<void> {
    const entry = supervised.get(cameraId);
    if (!entry) return;
    supervised.delete(cameraId);
    await entry.pipe.stop();
    entry.stopListening();
  }

  /** Brings one camera's pipe in line with its row. */
  async function reconcile(cameraId: string, camera: StreamCamera | undefined): Promise<void> {
    const entry = supervised.get(cameraId);
    if (!camera) {
      await stop(cameraId);
      return;
    }
    if (!shouldPull(camera)) {
      await stop(cameraId);
      if (camera.configurationStatus === 'configured') {
        const status: CameraStreamStatus = camera.isPrivate ? 'private' : 'stopped';
        if (camera.isPrivate) await clearSnapshot(camera);
        // Only a change is written: the write announces `cameras.changed`, which syncs again.
        if (camera.streamStatus !== status) await setStatus(undefined, camera.id, status);
      }
      return;
    }
    if (entry && entry.fingerprint !== fingerprintOf(camera)) await stop(cameraId);
    const current = supervised.get(cameraId);
    if (current) {
      current.camera = { ...camera, snapshotKey: current.camera.snapshotKey };
      current.pipe.setSensitivity(camera.motionSensitivity);
      return;
    }
    if (!closed) start(camera);
  }

  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    /** Starts every stream camera that should be pulled (at start). */
    startAll: () =>
      serial(async () => {
        for (const camera of await cameras.all()) await reconcile(camera.id, camera);
      }),
    /** After a user's cameras or privacy changed (or the account went). */
    syncUser: (userId: string) =>
      serial(async () => {
        const current = await cameras.ofUser(userId);
        const ids = new Set(current.map((c) => c.id));
        for (const entry of [...supervised.values()]) {
          if (entry.camera.userId === userId && !ids.has(entry.camera.id)) await stop(entry.camera.id);
        }
        for (const camera of current) await reconcile(camera.id, camera);
      }),
    /** After one camera was configured. */
    syncCamera: (cameraId: string) => serial(async () => reconcile(cameraId, await cameras.find(cameraId))),
    /** Stores a camera's latest frame (the first one comes from its configuration). */
    snapshot: (camera: StreamCamera, jpeg: Buffer, at: Date) => storeSnapshot(camera, jpeg, at),
    /** The pipe of a camera being pulled (live view), or undefined. */
    pipe: (cameraId: string): CameraPipe | undefined => supervised.get(cameraId)?.pipe,
    /**
     * Stops every pipe (each finishes the clip it was recording) and waits until the ingest has taken what
     * they made: run before the job queue stops. The cameras keep their status for the next start.
     */
    async close(): Promise<void> {
      closed = true;
      await serial(async () => {
        await Promise.all([...supervised.keys()].map((id) => stopKeepingListeners(id)));
      });
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
export type Supervision = ReturnType<typeof createSupervision>;
