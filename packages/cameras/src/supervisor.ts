import { createClipWriter, frameJpeg, type ClipWriter } from './clip.js';
import { createEmitter } from './emitter.js';
import { createFragmentBuffer } from './fragment-buffer.js';
import { createFrameSource, type FrameSource } from './frame-source.js';
import { createHls, type Hls } from './hls.js';
import { createLiveHub, type LiveHub } from './live-hub.js';
import { createMotionDetector, type MotionDetector } from './motion.js';
import { createStreamPull, type RtspTransport } from './stream-pull.js';
import type { BackoffOptions } from './supervised-process.js';
import type {
  CameraLogger,
  ConfiguredCamera,
  Fragment,
  MotionClip,
  MotionEventSource,
  StreamStatus,
} from './types.js';

/**
 * Everything one stream camera needs while it is switched on: the main-stream pull (live view, HLS, the
 * pre-event buffer), motion (frame differencing on the sub stream, or the camera's own events), and what
 * motion turns into: an alert snapshot the moment it is confirmed, then a clip with the seconds before it.
 */

export interface CameraSupervisorOptions {
  ffmpegPath: string;
  camera: ConfiguredCamera;
  /** Motion sensitivity 1–10 (10 the most sensitive). */
  sensitivity: number;
  /** Seconds of video before the motion in a clip (default 3). */
  preEventSeconds?: number;
  /** Seconds of video after the motion ended (default 5). */
  tailSeconds?: number;
  /** A clip is cut here (default 60); motion that goes on continues in the next clip. */
  maxClipSeconds?: number;
  /** The camera's own motion events (ONVIF); no frame decoding runs when given. */
  motionEvents?: MotionEventSource;
  /** Where clips are written; the receiver of a `clip` event owns (and removes) its file. */
  tmpDir: string;
  log: CameraLogger;
  /** Seconds between snapshots while streaming (default 30). */
  snapshotIntervalSeconds?: number;
  transport?: RtspTransport;
  /** Replaces the cameras' addresses with other ffmpeg inputs (tests): `-re -i file.mp4`. */
  inputArgs?: { main: string[]; motion?: string[] };
  stallMs?: number;
  backoff?: BackoffOptions;
  /** Motion tuning: no motion for this long (ms) ends it (default 3 s). */
  motionQuietMs?: number;
}

export interface CameraSupervisorEvents {
  status: (status: StreamStatus, reason?: string) => void;
  /** The current frame, soon after the stream starts and then at most every 30 s while streaming. */
  snapshot: (jpeg: Buffer, at: Date) => void;
  /** Motion was just confirmed: send the alert. `jpeg` is the main stream's current frame, null if none. */
  motionStart: (jpeg: Buffer | null, at: Date) => void;
  /** A finished motion clip (pre-event + motion + tail, capped). */
  clip: (clip: MotionClip) => void;
}

export interface CameraSupervisor {
  start(): void;
  /** Stops every process, finishes a clip being recorded, closes the live viewers. */
  stop(): Promise<void>;
  status(): StreamStatus;
  setSensitivity(sensitivity: number): void;
  live: {
    hub: LiveHub;
    hls: Hls;
    /** The MSE mime type of the current stream, once known. */
    mimeType(): string | undefined;
  };
  on<K extends keyof CameraSupervisorEvents>(event: K, listener: CameraSupervisorEvents[K]): () => void;
}

interface Recording {
  writer: ClipWriter;
  /** The keyframe it starts with. */
  first: Fragment;
  startedAt: number;
  /** Set when motion ended: the clip closes with the first fragment past it. */
  endAt: number | undefined;
}

export function createCameraSupervisor(options: CameraSupervisorOptions): CameraSupervisor {
  const { ffmpegPath, camera, log, tmpDir, motionEvents } = options;
  const preEventMs = (options.preEventSeconds ?? 3) * 1000;
  const tailMs = (options.tailSeconds ?? 5) * 1000;
  const maxClipMs = (options.maxClipSeconds ?? 60) * 1000;
  const snapshotIntervalMs = (options.snapshotIntervalSeconds ?? 30) * 1000;
  const common = {
    ffmpegPath,
    log,
    ...(options.transport && { transport: options.transport }),
    ...(options.stallMs !== undefined && { stallMs: options.stallMs }),
    ...(options.backoff && { backoff: options.backoff }),
  };

  const emitter = createEmitter<CameraSupervisorEvents>((err) =>
    log.error({ err: String(err) }, 'a camera supervisor listener failed'),
  );
  const buffer = createFragmentBuffer({ keepMs: preEventMs + 1000 });
  const hub = createLiveHub({ buffer });
  const hls = createHls();
  const pull = createStreamPull({
    ...common,
    address: camera.main,
    audioCodec: camera.main.audioCodec,
    ...(options.inputArgs && { inputArgs: options.inputArgs.main }),
  });

  const motionStream = camera.sub ?? camera.main;
  const frames: FrameSource | undefined = motionEvents
    ? undefined
    : createFrameSource({
        ...common,
        name: 'motion frames',
        address: motionStream,
        video: motionStream.video,
        ...(options.inputArgs && { inputArgs: options.inputArgs.motion ?? options.inputArgs.main }),
      });
  const detector: MotionDetector | undefined = frames
    ? createMotionDetector({
        width: frames.width,
        height: frames.height,
        sensitivity: options.sensitivity,
        ...(options.motionQuietMs !== undefined && { quietMs: options.motionQuietMs }),
      })
    : undefined;

  let running = false;
  /** Motion is going on (between a confirmed start and its end). */
  let moving = false;
  let recording: Recording | undefined;
  let lastSnapshotAt: number | undefined;
  let snapshotBusy = false;
  const tasks = new Set<Promise<unknown>>();

  function track(task: Promise<unknown>): void {
    tasks.add(task);
    void task.finally(() => tasks.delete(task));
  }

  function currentJpeg(): Promise<Buffer> {
    const init = buffer.init();
    if (!init) return Promise.reject(new Error('the main stream has not started'));
    return frameJpeg({ ffmpegPath, init, fragments: buffer.sinceKeyframe() });
  }

  /** Starts a clip with `fragments` (from a keyframe on) and records on from there. */
  function startRecording(fragments: Fragment[], endAt?: number): void {
    const init = buffer.init();
    const first = fragments[0];
    if (!init || !first) return;
    const writer = createClipWriter({ ffmpegPath, tmpDir, init });
    for (const fragment of fragments) writer.write(fragment);
    recording = { writer, first, startedAt: first.receivedAt, endAt };
  }

  /** Media time in the clip (arrival times jitter; frame durations do not), or wall time when unknown. */
  function recorded(r: Recording, fragment: Fragment): number {
    return r.writer.durationMs() || fragment.receivedAt - r.startedAt;
  }

  /** Closes the clip being recorded (just ahead of `before` when given) and hands it on. */
  function finishRecording(before?: Fragment): void {
    const r = recording;
    if (!r) return;
    recording = undefined;
    const task = r.writer.finish(before).then(
      (clip) =>
        emitter.emit('clip', {
          path: clip.path,
          startedAt: new Date(clip.startedAt),
          endedAt: new Date(clip.endedAt),
        }),
      (err: unknown) => log.error({ err: String(err) }, 'writing a motion clip failed'),
    );
    track(task);
  }

  function motionStarted(at: number): void {
    if (!running) return;
    const wasMoving = moving;
    moving = true;
    if (recording) {
      // Motion came back within the tail: the same event goes on.
      recording.endAt = undefined;
      return;
    }
    // A camera repeating "motion" while the main stream is down: one alert is enough.
    if (wasMoving) return;
    track(
      currentJpeg().then(
        (jpeg) => emitter.emit('motionStart', jpeg, new Date(at)),
        (err: unknown) => {
          log.warn({ err: String(err) }, 'no frame for the motion alert');
          emitter.emit('motionStart', null, new Date(at));
        },
      ),
    );
    startRecording(buffer.from(at - preEventMs));
  }

  function motionEnded(lastMotionAt: number): void {
    moving = false;
    if (recording) recording.endAt = lastMotionAt + tailMs;
  }

  function onFragment(fragment: Fragment): void {
    buffer.push(fragment);
    hub.onFragment(fragment);
    hls.push(fragment);
    const r = recording;
    if (r) {
      const key = buffer.sinceKeyframe()[0];
      if (r.endAt !== undefined && fragment.receivedAt >= r.endAt) {
        finishRecording();
      } else if (recorded(r, fragment) >= maxClipMs && key && key !== r.first) {
        // Capped: cut ahead of the newest keyframe, which starts the next clip, so the two join without a
        // gap or an overlap. (When one keyframe interval is longer than a clip, the cut waits for the next.)
        finishRecording(key);
        startRecording(buffer.sinceKeyframe(), r.endAt);
      } else {
        r.writer.write(fragment);
      }
    } else if (moving && fragment.keyframe) {
      // The main stream reconnected while motion went on: the event goes on in a new clip.
      startRecording([fragment]);
    }
    maybeSnapshot(fragment);
  }

  function maybeSnapshot(fragment: Fragment): void {
    if (snapshotBusy || pull.status() !== 'streaming' || buffer.sinceKeyframe().length === 0) return;
    if (lastSnapshotAt !== undefined && fragment.receivedAt - lastSnapshotAt < snapshotIntervalMs) return;
    lastSnapshotAt = fragment.receivedAt;
    snapshotBusy = true;
    track(
      currentJpeg()
        .then(
          (jpeg) => emitter.emit('snapshot', jpeg, new Date(fragment.receivedAt)),
          (err: unknown) => log.warn({ err: String(err) }, 'a camera snapshot failed'),
        )
        .finally(() => (snapshotBusy = false)),
    );
  }

  pull.on('init', (init) => {
    // A clip cannot cross a reconnect: the new stream needs its own init segment.
    finishRecording();
    buffer.reset(init);
    hls.reset(init);
    hub.onInit();
  });
  pull.on('fragment', onFragment);
  pull.on('status', (status, reason) => {
    if (status === 'reconnecting') finishRecording();
    hub.onStatus(status);
    emitter.emit('status', status, reason);
  });

  frames?.on('frame', (frame) => {
    const update = detector!.push(frame.data, frame.at);
    if (update?.type === 'start') motionStarted(update.at);
    else if (update?.type === 'end') motionEnded(update.lastMotionAt);
  });
  frames?.on('status', (status) => {
    if (status !== 'reconnecting') return;
    if (detector!.moving()) motionEnded(Date.now());
    detector!.reset();
  });

  return {
    start() {
      if (running) return;
      running = true;
      pull.start();
      frames?.start();
      motionEvents?.start(
        (isMoving) => (isMoving ? motionStarted(Date.now()) : motionEnded(Date.now())),
        (err) => log.warn({ err: err.message }, 'camera motion events failed'),
      );
    },
    async stop() {
      if (!running) return;
      running = false;
      await Promise.allSettled([pull.stop(), frames?.stop(), motionEvents?.stop()]);
      finishRecording();
      moving = false;
      detector?.reset();
      await Promise.allSettled([...tasks]);
      hub.close();
    },
    status: () => pull.status(),
    setSensitivity: (sensitivity) => detector?.setSensitivity(sensitivity),
    live: { hub, hls, mimeType: () => buffer.init()?.mimeType },
    on: (event, listener) => emitter.on(event, listener),
  };
}
