/**
 * Our ONVIF client, on top of the `onvif` package: read what a camera offers (device, H.264 profiles, stream
 * and snapshot URIs, motion events) and pull its motion events. Every failure becomes a
 * `CameraConfigurationError` with a stable code, so configuration can tell the owner what went wrong.
 *
 * The stream URIs a camera answers are returned as they are: they may name another host, and the caller
 * checks them against the network policy before anything connects there. Service addresses (media, events,
 * subscriptions) are always reached on the host and port we were given (`preserveAddress`), never on one the
 * camera names.
 */
import { Agent } from 'node:http';
import onvif from 'onvif';
import type { Cam } from 'onvif';
import {
  CameraConfigurationError,
  type CameraLogger,
  type MotionEventSource,
  type VideoInfo,
} from './types.js';

export interface OnvifLogin {
  host: string;
  /** Default 80. */
  port?: number | undefined;
  username: string;
  password: string;
}

export interface ReadOnvifCameraOptions extends OnvifLogin {
  /** For the whole reading (all requests together); default 15 s. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface OnvifStreamProfile {
  /** The ONVIF profile token. */
  token: string;
  name: string | null;
  /** RTP unicast over RTSP, exactly as the camera answered it (not checked, not connected to). */
  uri: string;
  video: VideoInfo;
  fps: number | null;
}

export interface OnvifCameraInfo {
  device: {
    manufacturer: string | null;
    model: string | null;
    firmware: string | null;
    serial: string | null;
  };
  /** The highest-resolution H.264 profile. */
  main: OnvifStreamProfile;
  /** The lowest-resolution H.264 profile smaller than `main`; null when there is none. */
  sub: OnvifStreamProfile | null;
  snapshotUri: string | null;
  /** Whether the camera offers motion topics through a PullPoint subscription (checked by subscribing once). */
  motionEvents: boolean;
}

export interface OnvifMotionOptions extends OnvifLogin {
  log?: CameraLogger | undefined;
  /** For each request other than the long PullMessages poll; default 10 s. */
  requestTimeoutMs?: number | undefined;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Renew a subscription once less than this is left: more than one PullMessages poll (1 min in `onvif`). */
const RENEW_MARGIN_MS = 75_000;
const MAX_BACKOFF_MS = 60_000;

/** An `onvif` request that failed, with the device's answer when there was one (it names SOAP faults). */
class OnvifRequestError extends Error {
  constructor(
    readonly original: unknown,
    readonly xml: string | undefined,
  ) {
    super(original instanceof Error ? original.message : String(original));
    this.name = 'OnvifRequestError';
  }
}

type Callback = (err: Error | null, data?: unknown, xml?: string) => void;

/**
 * Runs one callback-style `onvif` call as a promise, keeping the raw XML that the `onvif/promises` wrapper
 * drops (a fault's subcode, e.g. `ter:NotAuthorized`, is only there). Settles once: the library can call
 * back twice when its own callback throws on an odd answer.
 */
function call(
  run: (callback: Callback) => void,
  aborted: () => boolean = () => false,
): Promise<{ data: unknown; xml: string | undefined }> {
  return new Promise((resolve, reject) => {
    if (aborted()) return reject(new OnvifRequestError(new Error('aborted'), undefined));
    let settled = false;
    try {
      run((err, data, xml) => {
        if (settled) return;
        settled = true;
        if (err) reject(new OnvifRequestError(err, xml));
        else resolve({ data, xml });
      });
    } catch (err) {
      settled = true;
      reject(new OnvifRequestError(err, undefined));
    }
  });
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'EADDRNOTAVAIL',
  'EPIPE',
]);

function toConfigurationError(err: unknown): CameraConfigurationError {
  if (err instanceof CameraConfigurationError) return err;
  const original = err instanceof OnvifRequestError ? err.original : err;
  const xml = err instanceof OnvifRequestError ? (err.xml ?? '') : '';
  const code = (original as NodeJS.ErrnoException | undefined)?.code;
  const message = original instanceof Error ? original.message : String(original);
  if (code && UNREACHABLE_CODES.has(code)) return new CameraConfigurationError('unreachable', code);
  if (code === 'ETIMEDOUT' || /network timeout/i.test(message)) {
    return new CameraConfigurationError('timed_out', message);
  }
  if (/not ?authori[sz]ed|unauthori[sz]ed|authentication failed/i.test(`${message}\n${xml}`)) {
    return new CameraConfigurationError('wrong_credentials', message);
  }
  return new CameraConfigurationError('invalid_response', message);
}

/** Reads a path of keys from the library's untyped (xml2js + linerase) results. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // An element with attributes arrives as { _: text, $: attributes }.
  if (value && typeof value === 'object' && '_' in value) return text(value._);
  return null;
}

function number(value: unknown): number | null {
  const n = typeof value === 'number' ? value : Number(text(value));
  return Number.isFinite(n) && n > 0 ? n : null;
}

function createCam(login: OnvifLogin, agent: Agent, timeoutMs: number): Cam {
  return new onvif.Cam({
    hostname: login.host,
    port: login.port ?? 80,
    username: login.username,
    password: login.password,
    timeout: timeoutMs,
    autoconnect: false,
    preserveAddress: true,
    agent,
  });
}

/**
 * `onvif` sends subscription requests (PullMessages, Renew, Unsubscribe) with the parsed subscription address
 * as the request options, without the Cam's agent; giving the address our agent lets `stop()` and deadlines
 * abort a long poll instead of leaving it open for 80 s.
 */
function bindSubscriptionToAgent(cam: Cam, agent: Agent): void {
  const address = at(cam.events, 'subscription', 'subscriptionReference', 'address');
  if (address && typeof address === 'object') (address as { agent?: Agent }).agent = agent;
}

/** Learns the service addresses: GetServices, or GetCapabilities on devices older than it. */
async function discoverServices(cam: Cam, aborted: () => boolean): Promise<void> {
  try {
    await call((cb) => cam.getServices(true, cb), aborted);
  } catch (err) {
    const mapped = toConfigurationError(err);
    if (mapped.code === 'unreachable' || mapped.code === 'timed_out') throw err;
    await call((cb) => cam.getCapabilities(cb), aborted);
  }
}

interface RawProfile {
  token: string;
  name: string | null;
  encoding: string | null;
  width: number;
  height: number;
  fps: number | null;
}

function parseProfiles(data: unknown): RawProfile[] {
  return list(data).flatMap((profile): RawProfile[] => {
    const token = text(at(profile, '$', 'token'));
    const encoder = at(profile, 'videoEncoderConfiguration');
    const width = number(at(encoder, 'resolution', 'width'));
    const height = number(at(encoder, 'resolution', 'height'));
    if (!token || !width || !height) return [];
    return [
      {
        token,
        name: text(at(profile, 'name')),
        encoding: text(at(encoder, 'encoding')),
        width,
        height,
        fps: number(at(encoder, 'rateControl', 'frameRateLimit')),
      },
    ];
  });
}

async function readProfiles(cam: Cam, aborted: () => boolean): Promise<RawProfile[]> {
  if (!cam.uri?.media && !(cam.media2Support && cam.uri?.media2)) {
    throw new CameraConfigurationError('no_supported_stream', 'the device offers no media service');
  }
  try {
    return parseProfiles((await call((cb) => cam.getProfiles(cb), aborted)).data);
  } catch (err) {
    const mapped = toConfigurationError(err);
    // Some Media2 devices answer Media2 badly but Media1 well (the `onvif` library's connect does the same).
    if (!cam.media2Support || !cam.uri?.media || mapped.code !== 'invalid_response') throw err;
    cam.media2Support = false;
    return parseProfiles((await call((cb) => cam.getProfiles(cb), aborted)).data);
  }
}

async function streamProfile(
  cam: Cam,
  profile: RawProfile,
  aborted: () => boolean,
): Promise<OnvifStreamProfile> {
  const { data } = await call(
    (cb) => cam.getStreamUri({ protocol: 'RTSP', stream: 'RTP-Unicast', profileToken: profile.token }, cb),
    aborted,
  );
  const uri = text(at(data, 'uri'));
  if (!uri)
    throw new CameraConfigurationError('invalid_response', `no stream URI for profile ${profile.token}`);
  return {
    token: profile.token,
    name: profile.name,
    uri,
    video: { codec: 'h264', width: profile.width, height: profile.height },
    fps: profile.fps,
  };
}

/** Subscribes once (and unsubscribes) when the topic set has a motion topic: cameras list topics they never send. */
async function supportsMotionEvents(cam: Cam, agent: Agent, aborted: () => boolean): Promise<boolean> {
  if (!cam.uri?.events) return false;
  try {
    const { xml } = await call((cb) => cam.getEventProperties(cb), aborted);
    if (xml !== undefined && !/Motion/i.test(xml)) return false;
    await call((cb) => cam.createPullPointSubscription(cb), aborted);
    bindSubscriptionToAgent(cam, agent);
    await call((cb) => cam.unsubscribe(cb, true), aborted).catch(() => undefined);
    return true;
  } catch (err) {
    const mapped = toConfigurationError(err);
    if (mapped.code === 'timed_out' && aborted()) throw err;
    return false;
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new CameraConfigurationError('timed_out', reason.message);
  }
  return reason instanceof Error ? reason : new Error('aborted');
}

/**
 * Connects to an ONVIF camera and reads what configuration needs. Throws `CameraConfigurationError`:
 * `unreachable`, `wrong_credentials`, `no_supported_stream` (no H.264 profile), `timed_out`,
 * `invalid_response`.
 */
export async function readOnvifCamera(options: ReadOnvifCameraOptions): Promise<OnvifCameraInfo> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const agent = new Agent({ keepAlive: false });
  let done = false;
  const aborted = () => done;

  const work = async (): Promise<OnvifCameraInfo> => {
    const cam = createCam(options, agent, timeoutMs);
    // Unauthenticated, and first: it gives the clock offset the WS-Security digests are computed with.
    await call((cb) => cam.getSystemDateAndTime(cb), aborted);
    await discoverServices(cam, aborted);
    // The device's name is nice to have; only a login, network or deadline failure here is fatal.
    const info = await call((cb) => cam.getDeviceInformation(cb), aborted).then(
      ({ data }) => data,
      (err: unknown) => {
        if (aborted() || toConfigurationError(err).code !== 'invalid_response') throw err;
        return null;
      },
    );
    const profiles = (await readProfiles(cam, aborted)).filter((p) => p.encoding?.toUpperCase() === 'H264');
    if (profiles.length === 0) throw new CameraConfigurationError('no_supported_stream', 'no H.264 profile');
    const area = (p: RawProfile) => p.width * p.height;
    const mainProfile = profiles.reduce((best, p) => (area(p) > area(best) ? p : best));
    const smaller = profiles.filter((p) => p !== mainProfile && area(p) < area(mainProfile));
    const subProfile = smaller.length ? smaller.reduce((best, p) => (area(p) < area(best) ? p : best)) : null;

    const main = await streamProfile(cam, mainProfile, aborted);
    const sub = subProfile ? await streamProfile(cam, subProfile, aborted) : null;
    const snapshotUri = await call(
      (cb) => cam.getSnapshotUri({ profileToken: mainProfile.token }, cb),
      aborted,
    )
      .then(({ data }) => text(at(data, 'uri')))
      .catch((err: unknown) => {
        if (aborted()) throw err;
        return null;
      });
    const motionEvents = await supportsMotionEvents(cam, agent, aborted);
    return {
      device: {
        manufacturer: text(at(info, 'manufacturer')),
        model: text(at(info, 'model')),
        firmware: text(at(info, 'firmwareVersion')),
        serial: text(at(info, 'serialNumber')),
      },
      main,
      sub,
      snapshotUri,
      motionEvents,
    };
  };

  return new Promise<OnvifCameraInfo>((resolve, reject) => {
    const finish = (err: unknown, value?: OnvifCameraInfo): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Ends whatever request is still open (a device that stopped answering).
      agent.destroy();
      if (err === null && value) return resolve(value);
      if (err instanceof CameraConfigurationError) return reject(err);
      reject(signal?.aborted ? abortError(signal) : toConfigurationError(err));
    };
    const timer = setTimeout(
      () => finish(new CameraConfigurationError('timed_out', `no complete answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onAbort = (): void => finish(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    work().then(
      (value) => finish(null, value),
      (err: unknown) => finish(err),
    );
  });
}

/** The motion state a notification carries, or null when it is not about motion. */
export function motionFromNotification(message: unknown): boolean | null {
  const topic = text(at(message, 'topic'));
  if (!topic) return null;
  // `tns1:RuleEngine/CellMotionDetector/Motion` → `RuleEngine/CellMotionDetector/Motion`
  const name = topic
    .split('/')
    .map((part) => part.replace(/^[^:]*:/, ''))
    .join('/');
  const items = list(at(message, 'message', 'message', 'data', 'simpleItem')).map((item) => ({
    name: text(at(item, '$', 'Name')),
    value: at(item, '$', 'Value'),
  }));
  const flag = (value: unknown): boolean | null => {
    if (value === true || value === 1 || value === 'true' || value === '1') return true;
    if (value === false || value === 0 || value === 'false' || value === '0') return false;
    return null;
  };
  const named = (itemName: string) => flag(items.find((item) => item.name === itemName)?.value);
  if (/(^|\/)CellMotionDetector\/Motion$/.test(name)) return named('IsMotion');
  if (/(^|\/)VideoSource\/MotionAlarm$/.test(name)) return named('State');
  if (/Motion/i.test(name)) {
    for (const item of items) {
      const value = flag(item.value);
      if (value !== null) return value;
    }
  }
  return null;
}

/**
 * Motion events from the camera (ONVIF PullPoint): subscribes, pulls in a loop, renews before the
 * subscription ends, and after an error reports it to `onError` and subscribes again with a growing pause
 * (1 s doubling to 60 s) until `stop()`. `onMotion` is called when the state changes (the first state the
 * camera reports included).
 */
export function createOnvifMotionEvents(options: OnvifMotionOptions): MotionEventSource {
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const agent = new Agent({ keepAlive: false });
  let stopped = false;
  let cam: Cam | null = null;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const stopping = () => stopped;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  async function unsubscribe(current: Cam): Promise<void> {
    if (!at(current.events, 'subscription')) return;
    await call((cb) => current.unsubscribe(cb, true)).catch(() => undefined);
  }

  async function run(onMotion: (moving: boolean) => void, onError: (err: Error) => void): Promise<void> {
    let failures = 0;
    let last: boolean | null = null;
    while (!stopped) {
      const current = createCam(options, agent, requestTimeoutMs);
      cam = current;
      try {
        await call((cb) => current.getSystemDateAndTime(cb), stopping);
        await discoverServices(current, stopping);
        if (!current.uri?.events) throw new Error('the camera offers no events service');
        const created = await call((cb) => current.createPullPointSubscription(cb), stopping);
        bindSubscriptionToAgent(current, agent);
        let terminatesAt = terminationOf(created.data);
        while (!stopped) {
          if (terminatesAt - Date.now() < RENEW_MARGIN_MS) {
            try {
              terminatesAt = terminationOf((await call((cb) => current.renew({}, cb), stopping)).data);
            } catch (err) {
              // Some cameras refuse Renew but keep a polled subscription alive; an expiry shows up as a
              // failed pull, which subscribes again.
              if (stopped) break;
              options.log?.warn({ err: describe(err) }, 'onvif: renewing the motion subscription failed');
              terminatesAt = Date.now() + RENEW_MARGIN_MS + 60_000;
            }
          }
          const { data } = await call((cb) => current.pullMessages({ messageLimit: 10 }, cb), stopping);
          failures = 0;
          for (const message of list(at(data, 'notificationMessage'))) {
            const moving = motionFromNotification(message);
            if (moving !== null && moving !== last && !stopped) {
              last = moving;
              onMotion(moving);
            }
          }
        }
      } catch (err) {
        if (stopped) break;
        failures += 1;
        const error = toConfigurationError(err);
        options.log?.warn(
          { code: error.code, detail: error.message, attempt: failures },
          'onvif: motion events failed',
        );
        onError(error);
        await unsubscribe(current);
        await pause(Math.min(1000 * 2 ** (failures - 1), MAX_BACKOFF_MS));
      }
    }
    // Stopped while a subscription was being made: do not leave it on the camera.
    if (cam) await unsubscribe(cam);
  }

  return {
    start(onMotion, onError) {
      if (loop) throw new Error('motion events already started');
      loop = run(onMotion, onError);
    },
    async stop() {
      stopped = true;
      wake?.();
      const started = loop;
      if (!started) return agent.destroy();
      // Unsubscribing first lets a polite camera answer the open PullMessages; whatever is left after a
      // few seconds is cut off.
      const polite = (async () => {
        if (cam) await unsubscribe(cam);
        await started;
      })();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 3000)));
      if (!(await Promise.race([polite.then(() => true), late]))) agent.destroy();
      clearTimeout(timer);
      await polite;
      agent.destroy();
    },
  };
}

/** When a subscription ends, on our clock (the camera's may differ): now + (its termination − its now). */
function terminationOf(data: unknown): number {
  const current = at(data, 'currentTime');
  const termination = at(data, 'terminationTime');
  if (current instanceof Date && termination instanceof Date) {
    return Date.now() + (termination.getTime() - current.getTime());
  }
  return Date.now() + 60_000;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
