/**
 * The shapes the stream-camera code shares with its users (the server's `streams` module, the desktop
 * helper). Everything here is plain data or a small interface; the implementations sit beside it.
 */

/** How the owner told us to reach a camera (already validated by the contract's schema). */
export type CameraConnection =
  | { type: 'rtsp'; url: string; username?: string | undefined; password?: string | undefined }
  | { type: 'onvif'; host: string; port?: number | undefined; username: string; password: string };

/** Why configuration failed; the contract's `CAMERA_CONFIGURATION_ERRORS` holds the words. */
export type ConfigurationErrorCode =
  | 'unreachable'
  | 'wrong_credentials'
  | 'no_supported_stream'
  | 'timed_out'
  | 'network_not_allowed'
  | 'invalid_response';

export class CameraConfigurationError extends Error {
  constructor(
    readonly code: ConfigurationErrorCode,
    /** Details for the log (never shown to the user verbatim: they may hold addresses). */
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'CameraConfigurationError';
  }
}

/** One RTSP stream: its address (no login inside the URL) and the login to use. */
export interface StreamAddress {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}

export interface VideoInfo {
  /** ffprobe's codec name: `h264` is the only one we record. */
  codec: string;
  width: number;
  height: number;
}

/** What configuration learnt about a camera; stored (encrypted) and handed to the supervisor. */
export interface ConfiguredCamera {
  /** The recorded stream (the best H.264 profile). */
  main: StreamAddress & { video: VideoInfo; audioCodec: string | null };
  /** A small stream for motion detection; null when the camera has one stream (motion then uses `main`). */
  sub: (StreamAddress & { video: VideoInfo }) | null;
  /** ONVIF's HTTP snapshot address, when the camera has one. */
  snapshotUri: string | null;
  device: { manufacturer: string | null; model: string | null; firmware: string | null } | null;
  /** `onvif` when the camera offers motion events we can pull (PullPoint), else `frames`. */
  motionSource: 'onvif' | 'frames';
  /** How to reach the ONVIF services again (PullPoint motion events); null for plain RTSP. */
  onvif: { host: string; port: number; username: string; password: string } | null;
}

/** The result of a configuration: what to store, and the first frame as proof. */
export interface ConfigurationResult {
  camera: ConfiguredCamera;
  /** A JPEG of the first frame grabbed from the main stream. */
  firstFrame: Buffer;
}

/** Checks an address against `CAMERA_NETWORKS` before anything connects to it (no SSRF). */
export interface NetworkPolicy {
  /**
   * Resolves `host` and answers the address to connect to, or throws
   * `CameraConfigurationError('network_not_allowed')` when any of its addresses is outside the allowed
   * networks (or `unreachable` when the name does not resolve).
   */
  check(host: string): Promise<string>;
}

/** The supervised upstream of one camera. */
export type StreamStatus = 'connecting' | 'streaming' | 'reconnecting';

/** Motion events from the camera itself (ONVIF PullPoint), as an alternative to frame differencing. */
export interface MotionEventSource {
  /** Starts pulling; calls `onMotion(true|false)` as the camera reports motion starting and ending. */
  start(onMotion: (moving: boolean) => void, onError: (err: Error) => void): void;
  stop(): Promise<void>;
}

/** A piece of fragmented MP4 from the main stream (one moof + mdat pair). */
export interface Fragment {
  /** The bytes, moof and mdat together. */
  data: Buffer;
  /** Whether it starts with a keyframe (a viewer or a clip may start here). */
  keyframe: boolean;
  /** Wall-clock time the fragment arrived (ms since epoch). */
  receivedAt: number;
  /** Its media duration in ms (the video samples', from the track's timescale); 0 when unknown or audio only. */
  durationMs: number;
  /** Increases by one per fragment of one pull; restarts at 0 with a new init segment. */
  sequence: number;
}

/** A motion clip handed to the pipeline: an MP4 file (faststart) the caller owns and removes. */
export interface MotionClip {
  path: string;
  startedAt: Date;
  endedAt: Date;
}

/**
 * The little the stream code logs through: pino's (and so Fastify's) logger fits it as it is. Messages never
 * carry a camera's password or URL login.
 */
export interface CameraLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}
