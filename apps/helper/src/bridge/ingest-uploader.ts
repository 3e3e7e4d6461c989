import type { CameraUploadCredentials } from '@homesitter/contract';
import type { Logger } from '../logger.js';
import { ServerApiError, type ServerApi } from '../server-api/index.js';
import type { BridgedCameraRecord } from './camera-store.js';
import type { SpoolItem, UploadOutcome } from './upload-spool.js';

export interface IngestUploader {
  upload(item: SpoolItem, signal: AbortSignal): Promise<UploadOutcome>;
  /** Forget the upload login (another account signed in). */
  reset(): void;
}

/**
 * Sends a spooled motion file the way a camera uploads: `POST /api/ingest/events` with the camera's name
 * and the file, signed in with the account's camera upload login (fetched once, and again after a 401).
 * The server then treats it exactly like the motion of a camera it pulls itself.
 */
export function createIngestUploader({
  serverApi,
  cameras,
  currentUid,
  log,
}: {
  serverApi: Pick<ServerApi, 'uploadCredentials' | 'uploadEvent'>;
  cameras: { get: (cameraUuid: string) => Pick<BridgedCameraRecord, 'name' | 'owner_uid'> | undefined };
  currentUid: () => string | null;
  log: Logger;
}): IngestUploader {
  let login: Promise<CameraUploadCredentials> | undefined;

  function credentials(): Promise<CameraUploadCredentials> {
    login ??= serverApi.uploadCredentials();
    login.catch(() => (login = undefined));
    return login;
  }

  async function send(item: SpoolItem, cameraName: string): Promise<void> {
    const { username, password } = await credentials();
    await serverApi.uploadEvent(
      { username, password },
      {
        cameraName,
        path: item.path,
        fileName: item.kind === 'clip' ? 'motion.mp4' : 'motion.jpg',
        contentType: item.kind === 'clip' ? 'video/mp4' : 'image/jpeg',
      },
    );
  }

  return {
    async upload(item) {
      const uid = currentUid();
      if (!uid) return 'wait';
      const camera = cameras.get(item.cameraUuid);
      if (!camera) {
        log.warn(
          { camera: item.cameraUuid, file: item.path },
          'motion file of a camera that is gone: dropped',
        );
        return 'drop';
      }
      // Uploaded with this account's login it would land in this account: it waits for its own.
      if (camera.owner_uid !== uid) return 'skip';
      try {
        try {
          await send(item, camera.name);
        } catch (err) {
          if (!(err instanceof ServerApiError) || err.status !== 401 || err.code === 'helper.not_signed_in')
            throw err;
          // The upload password was replaced in the app: fetch it again, once.
          login = undefined;
          await send(item, camera.name);
        }
        log.debug({ camera: camera.name, kind: item.kind }, 'motion file uploaded');
        return 'done';
      } catch (err) {
        if (!(err instanceof ServerApiError)) throw err;
        if (err.code === 'helper.not_signed_in') return 'wait';
        if (err.transient || err.status === 401) {
          log.warn(
            { camera: camera.name, status: err.status, err: err.message },
            'motion upload failed; retrying',
          );
          return 'retry';
        }
        log.warn(
          { camera: camera.name, status: err.status, code: err.code, err: err.message },
          'the server refused a motion file: dropped',
        );
        return 'drop';
      }
    },
    reset() {
      login = undefined;
    },
  };
}
