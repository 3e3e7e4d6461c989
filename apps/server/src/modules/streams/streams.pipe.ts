import type { MotionClip, StreamStatus } from '@homesitter/cameras';
import type { CameraStreamStatus } from '@homesitter/contract';
import type { StreamCamera } from '../cameras/cameras.module.js';

/** A viewer of the live fan-out: a WebSocket, as the hub sees it. */
export interface LiveViewer {
  send(data: Buffer | string): void;
  bufferedAmount(): number;
  close(): void;
}

interface PipeEvents {
  status: (status: StreamStatus, reason?: string) => void;
  snapshot: (jpeg: Buffer, at: Date) => void;
  motionStart: (jpeg: Buffer, at: Date) => void;
  clip: (clip: MotionClip) => void;
}

/** One supervised stream camera: the upstream pull, motion, clips and the live fan-out. */
export interface CameraPipe {
  start(): void;
  stop(): Promise<void>;
  setSensitivity(sensitivity: number): void;
  on<K extends keyof PipeEvents>(event: K, listener: PipeEvents[K]): () => void;
  live: LivePipe;
}

/**
 * The live side of a camera: what the live routes serve. A pulled camera's pipe has one; so has a camera the
 * desktop helper bridges, whose fragments the helper relays (modules/helper).
 */
export interface LivePipe {
  /** Adds a viewer (init segment, the current GOP, then live fragments); answers its removal. */
  join(viewer: LiveViewer): () => void;
  /** The MSE type of the current stream, once its init segment arrived. */
  mimeType(): string | null;
  hls: {
    /** The playlist, its URIs (`init-<map>.mp4`, `segment-<n>.m4s`) carrying `query` (the signature). */
    playlist(query: string): string | undefined;
    init(map: number): Buffer | undefined;
    segment(sequence: number): Buffer | undefined;
  };
}

export type CameraPipeFactory = (camera: StreamCamera) => CameraPipe;

/** What `GET /live` tells the viewer of a camera watched on demand. */
export interface OnDemandAnswer {
  streamStatus: CameraStreamStatus;
  /** The session's live side; null when no stream runs (private, or it cannot start now). */
  live: LivePipe | null;
  /** Why it cannot start now, in the owner's language (Google's rate limit), with when to ask again. */
  notice: string | null;
  retryAfterS: number | null;
}

/**
 * Cameras watched on demand (Google Nest, docs/nest.md): nothing is pulled until a viewer asks; `GET /live`
 * starts (or joins) the camera's live session and the live routes serve its live side like any pipe's. The
 * module owning such cameras provides it.
 */
export interface OnDemandLive {
  /** Starts or joins the camera's session; undefined when the camera is not watched on demand. */
  open(camera: { camera_uuid: string; connection_type: string }): Promise<OnDemandAnswer | undefined>;
  /** The live side of a session running now. */
  live(cameraId: string): LivePipe | undefined;
}
