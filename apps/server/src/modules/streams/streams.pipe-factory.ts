import { createCameraSupervisor, createOnvifMotionEvents } from '@homesitter/cameras';
import type { Logger } from '../../platform/logger.js';
import type { CameraPipe, CameraPipeFactory } from './streams.pipe.js';

export interface PipeFactoryOptions {
  ffmpegPath: string;
  /** Where clips are written before the ingest takes them. */
  workDir: string;
  log: Logger;
  preEventSeconds: number;
  tailSeconds: number;
  maxClipSeconds: number;
}

/**
 * The real pipes: one camera supervisor of @homesitter/cameras per stream camera (ffmpeg pulls, motion,
 * clips, live fan-out), with the camera's own ONVIF motion events where configuration found them.
 */
export function createPipeFactory(options: PipeFactoryOptions): CameraPipeFactory {
  return (camera) => {
    const config = camera.config;
    if (!config) throw new Error(`stream camera ${camera.id} is not configured`);
    const log = options.log.child({ cameraId: camera.id });
    const supervisor = createCameraSupervisor({
      ffmpegPath: options.ffmpegPath,
      camera: config,
      sensitivity: camera.motionSensitivity,
      preEventSeconds: options.preEventSeconds,
      tailSeconds: options.tailSeconds,
      maxClipSeconds: options.maxClipSeconds,
      tmpDir: options.workDir,
      log,
      ...(config.motionSource === 'onvif' && config.onvif
        ? { motionEvents: createOnvifMotionEvents({ ...config.onvif, log }) }
        : {}),
    });
    const pipe: CameraPipe = {
      start: () => supervisor.start(),
      stop: () => supervisor.stop(),
      setSensitivity: (n) => supervisor.setSensitivity(n),
      on: (event, listener) => {
        if (event !== 'motionStart') {
          return supervisor.on(event, listener as Parameters<typeof supervisor.on<typeof event>>[1]);
        }
        // Without a frame yet, the alert waits for the clip, which carries the same motion.
        const onMotion = listener as (jpeg: Buffer, at: Date) => void;
        return supervisor.on('motionStart', (jpeg, at) => {
          if (jpeg) onMotion(jpeg, at);
        });
      },
      live: {
        join: (viewer) => supervisor.live.hub.join(viewer),
        mimeType: () => supervisor.live.mimeType() ?? null,
        hls: {
          playlist: (query) => supervisor.live.hls.playlist(query),
          init: (map) => supervisor.live.hls.init(map),
          segment: (sequence) => supervisor.live.hls.segment(sequence),
        },
      },
    };
    return pipe;
  };
}
