import {
  CameraConfigurationError,
  configureCamera,
  type NetworkPolicy,
  type ConfigurationResult,
} from '@homesitter/cameras';
import { CAMERA_CONFIGURATION_S, type CameraConfigurationErrorCode } from '@homesitter/contract';
import type { Logger } from '../../platform/logger.js';
import type { StreamCamera, StreamCameras } from '../cameras/cameras.module.js';

export interface ConfigurationDeps {
  cameras: StreamCameras;
  networks: NetworkPolicy;
  toolPaths: { ffmpeg: string; ffprobe: string };
  log: Logger;
  /** What to do with a configured camera: store its first frame, start supervising it. */
  onConfigured: (camera: StreamCamera, result: ConfigurationResult) => Promise<void>;
  /** Stands in for `configureCamera` (tests). */
  configure?: typeof configureCamera;
}

/**
 * Runs stream cameras' configuration (docs/product.md §4: configuring → configured | failed), one at a time per camera:
 * a request that arrives while one runs runs again after it, with the connection then stored.
 */
export function createConfigurationRunner(deps: ConfigurationDeps) {
  const { cameras, log } = deps;
  const configure = deps.configure ?? configureCamera;
  const running = new Map<string, { again: boolean; done: Promise<void> }>();
  const controller = new AbortController();

  async function runOnce(cameraId: string): Promise<void> {
    const camera = await cameras.find(cameraId);
    if (!camera || camera.configurationStatus !== 'configuring') return;
    const started = Date.now();
    try {
      const result = await configure(camera.connection, {
        policy: deps.networks,
        ffmpegPath: deps.toolPaths.ffmpeg,
        ffprobePath: deps.toolPaths.ffprobe,
        timeoutMs: CAMERA_CONFIGURATION_S * 1000,
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      const stored = await cameras.configured(camera.id, result.camera, camera.userId);
      if (!stored) return;
      log.info({ cameraId, ms: Date.now() - started }, 'stream camera configured');
      await deps.onConfigured(
        { ...camera, config: result.camera, configurationStatus: 'configured' },
        result,
      );
    } catch (err) {
      // Shutting down: the camera stays `configuring` and the next start configures it again.
      if (controller.signal.aborted) return;
      const code = err instanceof CameraConfigurationError ? outwardCode(err.code) : 'unreachable';
      if (err instanceof CameraConfigurationError)
        log.info({ cameraId, reason: err.message }, 'stream camera not configured');
      else log.warn({ err, cameraId }, 'stream camera configuration failed unexpectedly');
      await cameras.failed(camera.id, code);
    }
  }

  function request(cameraId: string): Promise<void> {
    const current = running.get(cameraId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      do {
        entry.again = false;
        await runOnce(cameraId).catch((err: unknown) =>
          log.error({ err, cameraId }, 'stream camera configuration could not be recorded'),
        );
      } while (entry.again && !controller.signal.aborted);
      running.delete(cameraId);
    })();
    running.set(cameraId, entry);
    return entry.done;
  }

  return {
    request,
    /** Cameras left `configuring` by a stop or a crash are configured again at start. */
    async resumeInterrupted(): Promise<void> {
      for (const camera of await cameras.all()) {
        if (camera.configurationStatus === 'configuring') void request(camera.id);
      }
    },
    /** Resolves when every configuration running now is done (tests). */
    settled: () => Promise.all([...running.values()].map((r) => r.done)).then(() => undefined),
    async close(): Promise<void> {
      controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}
export type ConfigurationRunner = ReturnType<typeof createConfigurationRunner>;

/**
 * What the owner is told: a closed port and a port where something other than a camera answers get the
 * same code (and words), so configuring a camera cannot map which ports of a host are open. The log keeps
 * the difference.
 */
function outwardCode(code: CameraConfigurationErrorCode): CameraConfigurationErrorCode {
  return code === 'invalid_response' ? 'unreachable' : code;
}
