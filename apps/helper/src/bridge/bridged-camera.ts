import {
  createCameraSupervisor,
  createOnvifMotionEvents,
  type CameraSupervisor,
  type StreamStatus,
} from '@homesitter/cameras';
import type { Logger } from '../logger.js';
import type { BridgedCameraRecord } from './camera-store.js';
import type { MotionFileKind } from './upload-spool.js';

/** Motion clip shape (the server's STREAM_* settings; tests shorten them). */
export interface RecordingOptions {
  preEventSeconds?: number;
  tailSeconds?: number;
  maxClipSeconds?: number;
  motionQuietMs?: number;
}

export interface BridgedCameraEvents {
  onStatus(status: StreamStatus, reason: string | undefined): void;
  /** A motion file to upload: the alert snapshot (a JPEG in memory) or a finished clip (a file). */
  onMotion(kind: MotionFileKind, file: { data: Buffer } | { path: string }): void;
}

/** One bridged camera being recorded: its supervisor, and what its motion turns into. */
export interface RunningCamera {
  setSensitivity(sensitivity: number): void;
  joinLive: CameraSupervisor['live']['hub']['join'];
  /** Stops the pulls; a clip being recorded is finished and handed on first. */
  stop(): Promise<void>;
}

/**
 * Starts recording a bridged camera exactly as the server's stream pipe does for a camera it pulls (the
 * camera's ONVIF motion events where configuration found them, else frame differencing), but motion goes
 * to the upload spool instead of the ingest.
 */
export function startBridgedCamera({
  record,
  ffmpegPath,
  workDir,
  recording,
  log,
  events,
}: {
  record: BridgedCameraRecord;
  ffmpegPath: string;
  workDir: string;
  recording: RecordingOptions;
  log: Logger;
  events: BridgedCameraEvents;
}): RunningCamera {
  const config = record.camera;
  const supervisor = createCameraSupervisor({
    ffmpegPath,
    camera: config,
    sensitivity: record.motion_sensitivity,
    tmpDir: workDir,
    log,
    ...recording,
    ...(config.motionSource === 'onvif' && config.onvif
      ? { motionEvents: createOnvifMotionEvents({ ...config.onvif, log }) }
      : {}),
  });
  supervisor.on('status', (status, reason) => events.onStatus(status, reason));
  // Without a frame yet the alert waits for the clip, which carries the same motion (as on the server).
  supervisor.on('motionStart', (jpeg) => {
    if (jpeg) events.onMotion('snapshot', { data: jpeg });
  });
  supervisor.on('clip', (clip) => events.onMotion('clip', { path: clip.path }));
  supervisor.start();
  return {
    setSensitivity: (sensitivity) => supervisor.setSensitivity(sensitivity),
    joinLive: (viewer) => supervisor.live.hub.join(viewer),
    stop: () => supervisor.stop(),
  };
}
