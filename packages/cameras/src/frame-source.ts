import { createEmitter } from './emitter.js';
import { rtspInputArgs, type RtspTransport } from './stream-pull.js';
import {
  createSupervisedProcess,
  maskSecrets,
  type BackoffOptions,
  type SupervisedProcess,
} from './supervised-process.js';
import type { CameraLogger, StreamAddress, StreamStatus, VideoInfo } from './types.js';

/**
 * Small grayscale frames for motion detection, decoded by one ffmpeg from the sub stream (or the main one
 * when the camera has no other): a few per second, ~320 px wide, one byte per pixel.
 */

export interface GrayFrame {
  /** width × height bytes, row by row. */
  data: Uint8Array;
  width: number;
  height: number;
  /** Wall-clock time the frame arrived (ms since epoch). */
  at: number;
}

export interface FrameSourceOptions {
  ffmpegPath: string;
  address?: StreamAddress;
  /** The stream's size, to keep its aspect ratio; 16:9 is assumed without it. */
  video?: VideoInfo;
  transport?: RtspTransport;
  /** Replaces the input part of the command (everything up to and including `-i …`): tests, files. */
  inputArgs?: string[];
  /** Frames per second (default 5). */
  fps?: number;
  /** Width of the frames (default 320, never more than the stream's). */
  width?: number;
  log: CameraLogger;
  name?: string;
  stallMs?: number;
  backoff?: BackoffOptions;
}

export interface FrameSourceEvents {
  frame: (frame: GrayFrame) => void;
  status: (status: StreamStatus, reason?: string) => void;
}

export interface FrameSource {
  readonly width: number;
  readonly height: number;
  start(): void;
  stop(): Promise<void>;
  status(): StreamStatus;
  on<K extends keyof FrameSourceEvents>(event: K, listener: FrameSourceEvents[K]): () => void;
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

export function createFrameSource(options: FrameSourceOptions): FrameSource {
  const { address, log } = options;
  if (!address && !options.inputArgs) throw new Error('createFrameSource needs an address or inputArgs');
  const fps = options.fps ?? 5;
  const sourceWidth = options.video?.width || 1920;
  const sourceHeight = options.video?.height || 1080;
  const width = even(Math.min(options.width ?? 320, sourceWidth));
  const height = even((width * sourceHeight) / sourceWidth);
  const frameBytes = width * height;
  const emitter = createEmitter<FrameSourceEvents>((err) =>
    log.error({ err: String(err) }, 'a frame listener failed'),
  );

  let frame = new Uint8Array(frameBytes);
  let filled = 0;

  const proc: SupervisedProcess = createSupervisedProcess({
    name: options.name ?? 'motion frames',
    command: options.ffmpegPath,
    args: () => [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      // Motion needs a rough picture: one decoding thread, no deblocking, the fast decoding shortcuts
      // (together about a third less CPU per camera; eight cameras run on two cores).
      ...['-threads', '1', '-skip_loop_filter', 'all', '-flags2', '+fast'],
      ...(options.inputArgs ?? rtspInputArgs(address!, options.transport)),
      '-map',
      '0:v:0',
      '-an',
      '-vf',
      `fps=${fps},scale=${width}:${height}:flags=fast_bilinear`,
      '-pix_fmt',
      'gray',
      '-f',
      'rawvideo',
      '-flush_packets',
      '1',
      'pipe:1',
    ],
    log,
    mask: (text) => maskSecrets(text, [address?.password, address?.username]),
    ...(options.stallMs !== undefined && { stallMs: options.stallMs }),
    ...(options.backoff && { backoff: options.backoff }),
    onSpawn() {
      filled = 0;
    },
    onStdout(chunk) {
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(chunk.length - at, frameBytes - filled);
        frame.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === frameBytes) {
          const done = frame;
          frame = new Uint8Array(frameBytes);
          filled = 0;
          proc.markStreaming();
          emitter.emit('frame', { data: done, width, height, at: Date.now() });
        }
      }
    },
    onStatus: (status, reason) => emitter.emit('status', status, reason),
  });

  return {
    width,
    height,
    start: () => proc.start(),
    stop: () => proc.stop(),
    status: () => proc.status(),
    on: (event, listener) => emitter.on(event, listener),
  };
}
