import { CameraConfigurationError, type ConfigurationErrorCode } from '@homesitter/cameras';
import {
  CAMERA_CONFIGURATION_ERRORS,
  type HelperCameraTestResult,
  type StreamConnectionInput,
} from '@homesitter/contract';
import type { Logger } from '../logger.js';
import type { CameraAccess } from './camera-access.js';
import { videoInfo } from './camera-details.js';

/**
 * The camera test (spec: "does my camera work with Homesitter?"): configuration exactly as it would run,
 * with its first frame as the snapshot, turned into a verdict. Nothing is sent to the server.
 */
export async function testCamera(
  access: CameraAccess,
  connection: StreamConnectionInput,
  { signal, log, timeoutMs }: { signal?: AbortSignal; log: Logger; timeoutMs: number },
): Promise<HelperCameraTestResult> {
  const started = Date.now();
  try {
    const { camera, firstFrame } = await access.configure(connection, signal);
    return {
      verdict: 'works',
      error_code: null,
      message: 'Homesitter can record this camera.',
      snapshot: `data:image/jpeg;base64,${firstFrame.toString('base64')}`,
      video: videoInfo(camera.main.video),
      sub_video: camera.sub ? videoInfo(camera.sub.video) : null,
      audio_codec: camera.main.audioCodec,
      device: camera.device,
      motion_source: camera.motionSource,
      elapsed_ms: Date.now() - started,
    };
  } catch (err) {
    const failed = (code: ConfigurationErrorCode | null, message: string): HelperCameraTestResult => ({
      verdict: code === 'no_supported_stream' ? 'unsupported' : 'failed',
      error_code: code,
      message,
      snapshot: null,
      video: null,
      sub_video: null,
      audio_codec: null,
      device: null,
      motion_source: null,
      elapsed_ms: Date.now() - started,
    });
    if (err instanceof CameraConfigurationError) {
      // The detail may name addresses; it goes to the log, the verdict carries the code's sentence.
      log.info({ code: err.code, detail: err.message }, 'camera test failed');
      return failed(err.code, failureMessage(err.code, timeoutMs));
    }
    log.error({ err: String(err) }, 'camera test could not run');
    return failed(null, 'The helper could not run the test (is ffmpeg installed?). See the helper log.');
  }
}

/** The contract's sentence, with the helper's own timeout and network rule where those differ. */
export function failureMessage(code: ConfigurationErrorCode, timeoutMs: number): string {
  if (code === 'timed_out')
    return `The camera did not answer in time (${Math.round(timeoutMs / 1000)} seconds).`;
  if (code === 'network_not_allowed') {
    return 'The helper only connects to cameras on your home network; this address is outside it.';
  }
  return CAMERA_CONFIGURATION_ERRORS[code];
}
