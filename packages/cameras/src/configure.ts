/**
 * Configuring a stream camera once its owner adds it: reach it, log in, find an H.264 stream we can record
 * (and a small one for motion), grab a first frame as proof. Everything is bounded by one deadline; every
 * camera failure is a `CameraConfigurationError` whose code the contract turns into words for the owner.
 *
 * No SSRF: every host is checked against the network policy before anything connects to it, including the
 * stream and snapshot addresses an ONVIF camera answers (a camera must not point the server elsewhere), and
 * the connection goes to the address the policy checked, not to the name again (no DNS rebinding). The
 * stored stream URLs therefore hold that address.
 */
import { readOnvifCamera, type OnvifCameraInfo } from './onvif.js';
import { grabFrame, jpegSize, probeRtsp, type ProbeResult } from './rtsp-probe.js';
import {
  CameraConfigurationError,
  type CameraConnection,
  type ConfigurationResult,
  type ConfiguredCamera,
  type NetworkPolicy,
  type StreamAddress,
  type VideoInfo,
} from './types.js';

export type ReadOnvifCamera = typeof readOnvifCamera;

export interface ConfigureOptions {
  policy: NetworkPolicy;
  /** Defaults to the packaged ffmpeg. */
  ffmpegPath?: string;
  /** Defaults to the packaged ffprobe. */
  ffprobePath?: string;
  /** The whole configuration's budget; any step still running then fails with `timed_out`. */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
  /** Reads an ONVIF camera; `readOnvifCamera` from ./onvif.ts by default. */
  onvif?: ReadOnvifCamera;
  /** Probes a stream; `probeRtsp` by default (tests pass a fake). */
  probe?: typeof probeRtsp;
  /** Grabs a stream's first frame; `grabFrame` by default (tests pass a fake). */
  grab?: typeof grabFrame;
}

export const DEFAULT_CONFIGURE_TIMEOUT_MS = 30_000;
const DEFAULT_ONVIF_PORT = 80;

/**
 * Configures a camera. Throws `CameraConfigurationError` for anything the camera or its address is the
 * cause of; other errors (ffmpeg missing, a bug) are thrown as they are.
 */
export async function configureCamera(
  connection: CameraConnection,
  options: ConfigureOptions,
): Promise<ConfigurationResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONFIGURE_TIMEOUT_MS;
  const deadline = new Deadline(timeoutMs, options.signal);
  try {
    const steps: Steps = {
      deadline,
      policy: options.policy,
      probe: (address) =>
        deadline.race(
          (options.probe ?? probeRtsp)(address, {
            ...(options.ffprobePath ? { ffprobePath: options.ffprobePath } : {}),
            timeoutMs: deadline.remaining(),
            signal: deadline.signal,
          }),
        ),
      grab: (address) =>
        deadline.race(
          (options.grab ?? grabFrame)(address, {
            ...(options.ffmpegPath ? { ffmpegPath: options.ffmpegPath } : {}),
            timeoutMs: deadline.remaining(),
            signal: deadline.signal,
          }),
        ),
    };
    return connection.type === 'rtsp'
      ? await configureRtsp(connection, steps)
      : await configureOnvif(connection, steps, options.onvif ?? readOnvifCamera);
  } finally {
    deadline.dispose();
  }
}

interface Steps {
  deadline: Deadline;
  policy: NetworkPolicy;
  probe(address: StreamAddress): Promise<ProbeResult>;
  grab(address: StreamAddress): Promise<Buffer>;
}

async function configureRtsp(
  connection: Extract<CameraConnection, { type: 'rtsp' }>,
  steps: Steps,
): Promise<ConfigurationResult> {
  const url = parseStreamUrl(connection.url, 'unreachable');
  // A login typed into the URL counts when the form's fields are empty; the stored URL never holds one.
  const username = connection.username || decodeLogin(url.username);
  const password = connection.password || decodeLogin(url.password);
  const address = await checkedStreamUrl(url, steps);
  const main = { url: address, ...login(username, password) };

  const probed = await steps.probe(main);
  const video = recordable(probed);
  const firstFrame = await steps.grab(main);
  return {
    camera: {
      main: { ...main, video: sized(video, jpegSize(firstFrame)), audioCodec: probed.audioCodec },
      sub: null,
      snapshotUri: null,
      device: null,
      motionSource: 'frames',
      onvif: null,
    },
    firstFrame,
  };
}

async function configureOnvif(
  connection: Extract<CameraConnection, { type: 'onvif' }>,
  steps: Steps,
  read: ReadOnvifCamera,
): Promise<ConfigurationResult> {
  const { deadline } = steps;
  const host = await deadline.race(steps.policy.check(connection.host));
  const port = connection.port ?? DEFAULT_ONVIF_PORT;
  const { username, password } = connection;

  let info: OnvifCameraInfo;
  try {
    info = await deadline.race(
      read({ host, port, username, password, timeoutMs: deadline.remaining(), signal: deadline.signal }),
    );
  } catch (err) {
    throw deadline.signal.aborted ? deadline.error() : onvifFailure(err);
  }

  // The camera's own answers are checked like the owner's input: it must not point us outside the networks.
  const mainUrl = await checkedStreamUrl(parseStreamUrl(info.main.uri, 'invalid_response'), steps);
  const subUrl = info.sub
    ? await checkedStreamUrl(parseStreamUrl(info.sub.uri, 'invalid_response'), steps)
    : null;
  const snapshotUri = info.snapshotUri ? await checkedSnapshotUri(info.snapshotUri, steps) : null;

  const credentials = login(username, password);
  const mainAddress: StreamAddress = { url: mainUrl, ...credentials };
  const subAddress: StreamAddress | null = subUrl ? { url: subUrl, ...credentials } : null;
  const [mainProbe, subProbe] = await Promise.allSettled([
    steps.probe(mainAddress),
    subAddress ? steps.probe(subAddress) : Promise.resolve(null),
  ]);
  if (deadline.signal.aborted) throw deadline.error();

  const sub =
    subAddress && subProbe.status === 'fulfilled' && subProbe.value?.video
      ? { address: subAddress, probed: subProbe.value, video: sized(subProbe.value.video, info.sub?.video) }
      : null;

  let main: ConfiguredCamera['main'];
  let motionStream: ConfiguredCamera['sub'];
  if (mainProbe.status === 'fulfilled' && isH264(mainProbe.value.video)) {
    const video = sized(mainProbe.value.video, info.main.video);
    main = { ...mainAddress, video, audioCodec: mainProbe.value.audioCodec };
    motionStream = sub ? { ...sub.address, video: sub.video } : null;
  } else if (sub && isH264(sub.video)) {
    // The main profile is not H.264 (often H.265) but the small one is: record that rather than nothing.
    main = { ...sub.address, video: sub.video, audioCodec: sub.probed.audioCodec };
    motionStream = null;
  } else if (mainProbe.status === 'rejected') {
    throw mainProbe.reason;
  } else {
    throw unsupported(mainProbe.value);
  }

  const firstFrame = await steps.grab(main);
  return {
    camera: {
      main: { ...main, video: sized(main.video, jpegSize(firstFrame)) },
      sub: motionStream,
      snapshotUri,
      device: {
        manufacturer: info.device.manufacturer,
        model: info.device.model,
        firmware: info.device.firmware,
      },
      motionSource: info.motionEvents ? 'onvif' : 'frames',
      onvif: { host, port, username, password },
    },
    firstFrame,
  };
}

// ---- helpers ----

function login(username: string | undefined, password: string | undefined): Omit<StreamAddress, 'url'> {
  return {
    ...(username !== undefined && username !== '' ? { username } : {}),
    ...(password !== undefined && password !== '' ? { password } : {}),
  };
}

function decodeLogin(part: string): string | undefined {
  if (part === '') return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The video with its size taken from elsewhere (the camera's profile, the first frame) when ffprobe had none. */
function sized(video: VideoInfo, fallback: { width: number; height: number } | null | undefined): VideoInfo {
  if ((video.width > 0 && video.height > 0) || !fallback || !(fallback.width > 0 && fallback.height > 0))
    return video;
  return { ...video, width: fallback.width, height: fallback.height };
}

function isH264(video: VideoInfo | null): video is VideoInfo {
  return video?.codec === 'h264';
}

function recordable(probed: ProbeResult): VideoInfo {
  if (isH264(probed.video)) return probed.video;
  throw unsupported(probed);
}

function unsupported(probed: ProbeResult): CameraConfigurationError {
  return new CameraConfigurationError(
    'no_supported_stream',
    probed.video ? `the video is ${probed.video.codec}, not h264` : 'the stream carries no video',
  );
}

function parseStreamUrl(text: string, code: 'unreachable' | 'invalid_response'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CameraConfigurationError(code, 'not a stream address');
  }
  if ((url.protocol !== 'rtsp:' && url.protocol !== 'rtsps:') || url.hostname === '') {
    throw new CameraConfigurationError(code, `not an rtsp:// address (${url.protocol})`);
  }
  return url;
}

/** Checks the URL's host and answers the URL pointing at the checked address, without any login. */
async function checkedStreamUrl(url: URL, steps: Steps): Promise<string> {
  const address = await steps.deadline.race(steps.policy.check(url.hostname));
  return withAddress(url, address);
}

/** The camera's snapshot address, checked like a stream; null when it is unusable or points elsewhere. */
async function checkedSnapshotUri(text: string, steps: Steps): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  try {
    return withAddress(url, await steps.deadline.race(steps.policy.check(url.hostname)));
  } catch (err) {
    if (steps.deadline.signal.aborted) throw steps.deadline.error();
    if (err instanceof CameraConfigurationError) return null;
    throw err;
  }
}

function withAddress(url: URL, address: string): string {
  // URLs cannot carry an IPv6 zone (`fe80::1%eth0`); a link-local camera is reached without one.
  const ip = address.split('%')[0]!;
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${url.pathname}${url.search}`;
}

/** What an error from the ONVIF reader means, when it is not a `CameraConfigurationError` already. */
function onvifFailure(err: unknown): Error {
  if (err instanceof CameraConfigurationError) return err;
  const e = (err ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(err);
  const detail = `ONVIF: ${code ? `${code} ` : ''}${message}`.slice(0, 300);
  if (
    ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)
  ) {
    return new CameraConfigurationError('unreachable', detail);
  }
  if (
    ['ETIMEDOUT', 'ESOCKETTIMEDOUT'].includes(code) ||
    e.name === 'TimeoutError' ||
    e.name === 'AbortError'
  ) {
    return new CameraConfigurationError('timed_out', detail);
  }
  if (/\b401\b|unauthori[sz]ed|NotAuthorized|not authorized|authority failure/i.test(message)) {
    return new CameraConfigurationError('wrong_credentials', detail);
  }
  return new CameraConfigurationError('invalid_response', detail);
}

/**
 * One deadline for the whole configuration: aborts its signal (which kills running ffmpeg/ffprobe and
 * the ONVIF requests) at `timeoutMs` or when the caller's signal aborts, and makes any step still running
 * then reject with `timed_out`.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort: () => void;

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    this.endsAt = Date.now() + timeoutMs;
    this.timer = setTimeout(
      () =>
        this.controller.abort(new CameraConfigurationError('timed_out', `no result within ${timeoutMs} ms`)),
      timeoutMs,
    );
    this.onCallerAbort = () => {
      const reason: unknown = callerSignal?.reason;
      this.controller.abort(
        reason instanceof CameraConfigurationError
          ? reason
          : new CameraConfigurationError('timed_out', 'configuration was cancelled'),
      );
    };
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remaining(): number {
    return Math.max(1, this.endsAt - Date.now());
  }

  error(): CameraConfigurationError {
    const reason: unknown = this.signal.reason;
    return reason instanceof CameraConfigurationError
      ? reason
      : new CameraConfigurationError('timed_out', `no result within ${this.timeoutMs} ms`);
  }

  /** Settles with `promise`, or rejects with the deadline's error as soon as the deadline passes. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      promise.catch(() => undefined);
      return Promise.reject(this.error());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.error());
      this.signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (err: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    // Anything still running (a probe of a stream we no longer need) stops now.
    if (!this.signal.aborted)
      this.controller.abort(new CameraConfigurationError('timed_out', 'configuration ended'));
  }
}
