import type { MotionClip, StreamStatus } from '@homesitter/cameras';
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
