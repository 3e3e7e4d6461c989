import { CameraConfigurationError } from '@homesitter/cameras';
import type { Camera, HelperJob, StreamConnectionInput } from '@homesitter/contract';
import { sleep } from '../backoff.js';
import type { Bridge } from '../bridge/index.js';
import { failureMessage, type CameraAccess } from '../cameras/index.js';
import { ServerApiError, type ServerApi } from '../server-api/index.js';
import type { Logger } from '../logger.js';
import type { CameraMode } from './mode.js';

/** One camera being set up, with what the public `HelperJob` does not show (its login). */
export interface JobState {
  view: HelperJob;
  connection: StreamConnectionInput;
  siteUuid: string | null | undefined;
  /** Set once the server holds the camera: a retry then configures it again instead of adding it. */
  registeredAs: CameraMode | null;
  /** The connection was changed by a retry since the server last saw it. */
  connectionChanged: boolean;
}

export interface JobDeps {
  chooseMode(): Promise<CameraMode>;
  serverApi: ServerApi;
  cameras: CameraAccess;
  bridge: Pick<Bridge, 'adopt' | 'report'>;
  /** Between two looks at a camera the server configures. */
  pollIntervalMs: number;
  /** How long the server may take to configure a camera before the job gives up watching. */
  serverDeadlineMs: number;
  /** The helper's own configuration deadline, for the words of `timed_out`. */
  connectionTimeoutMs: number;
  log: Logger;
}

/** A failure the job ends with: its code and the sentence for the user. */
class JobFailure extends Error {
  constructor(
    readonly code: NonNullable<HelperJob['error_code']>,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One attempt at a job: the server pulls the camera (registered with its real connection, watched until
 * the server is done), or this helper bridges it (registered as a helper camera, configured here, adopted
 * by the bridge). A server that may not reach the address (`camera.network_not_allowed`) gets it bridged.
 */
export async function runConfigureJob(job: JobState, deps: JobDeps, signal: AbortSignal): Promise<void> {
  job.view.status = 'configuring';
  job.view.error_code = null;
  job.view.message = null;
  try {
    const mode = job.registeredAs ?? (await deps.chooseMode());
    if (mode === 'server') await viaServer(job, deps, signal);
    else await viaBridge(job, deps, signal);
  } catch (err) {
    const failure = asFailure(err, deps);
    job.view.status = 'failed';
    job.view.error_code = failure.code;
    job.view.message = failure.message;
  }
}

async function viaServer(job: JobState, deps: JobDeps, signal: AbortSignal): Promise<void> {
  const { serverApi } = deps;
  let camera: Camera;
  if (job.registeredAs === null) {
    try {
      camera = await serverApi.addCamera({
        name: job.view.camera_name,
        site_uuid: job.siteUuid,
        connection: job.connection,
      });
    } catch (err) {
      if (err instanceof ServerApiError && err.code === 'camera.network_not_allowed') {
        return viaBridge(job, deps, signal);
      }
      throw err;
    }
    job.registeredAs = 'server';
  } else {
    camera = await serverApi.reconfigureCamera(
      job.view.camera_name,
      job.connectionChanged ? job.connection : undefined,
    );
  }
  job.connectionChanged = false;
  job.view.mode = 'server';
  job.view.camera_uuid = camera.camera_uuid;

  const deadline = Date.now() + deps.serverDeadlineMs;
  while (camera.configuration_status === 'pending' || camera.configuration_status === 'configuring') {
    if (signal.aborted) throw new JobFailure('server_error', 'The helper stopped before the server was done');
    if (Date.now() > deadline) {
      throw new JobFailure('timed_out', 'The server did not finish configuring the camera in time');
    }
    await sleep(deps.pollIntervalMs, signal);
    camera = await serverApi.getCamera(job.view.camera_name);
  }
  job.view.status = camera.configuration_status;
  job.view.error_code = camera.configuration_error_code;
  job.view.message = camera.configuration_error;
}

async function viaBridge(job: JobState, deps: JobDeps, signal: AbortSignal): Promise<void> {
  job.view.mode = 'bridge';
  if (job.registeredAs === null) {
    const camera = await deps.serverApi.addCamera({
      name: job.view.camera_name,
      site_uuid: job.siteUuid,
      connection: { type: 'helper' },
    });
    job.registeredAs = 'bridge';
    job.view.camera_uuid = camera.camera_uuid;
  }
  const cameraUuid = job.view.camera_uuid!;
  job.connectionChanged = false;
  deps.bridge.report(cameraUuid, { configuration_status: 'configuring', configuration_error_code: null });
  try {
    const { camera } = await deps.cameras.configure(job.connection, signal);
    await deps.bridge.adopt({
      camera_uuid: cameraUuid,
      name: job.view.camera_name,
      connection: job.connection,
      camera,
    });
  } catch (err) {
    const code = err instanceof CameraConfigurationError ? err.code : null;
    deps.bridge.report(cameraUuid, { configuration_status: 'failed', configuration_error_code: code });
    throw err;
  }
  job.view.status = 'configured';
}

function asFailure(err: unknown, deps: JobDeps): JobFailure {
  if (err instanceof JobFailure) return err;
  if (err instanceof CameraConfigurationError) {
    return new JobFailure(err.code, failureMessage(err.code, deps.connectionTimeoutMs));
  }
  if (err instanceof ServerApiError) {
    return new JobFailure(err.code === 'camera.name_taken' ? 'name_taken' : 'server_error', err.message);
  }
  deps.log.error({ err: String(err) }, 'a camera configuration job failed');
  return new JobFailure('server_error', 'The helper could not configure the camera; see its log');
}
