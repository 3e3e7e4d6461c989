/**
 * The phone's camera test ("does my camera work with Homesitter?", the helper's `POST /cameras/test`) over a
 * `CameraTransport`, with the same verdicts and problem texts as the helper: ONVIF `GetDeviceInformation`,
 * `GetServices`, `GetProfiles`, `GetStreamUri` and `GetSnapshotUri` with the owner's login, then RTSP
 * `DESCRIBE` of the stream for its codec, size and frame rate, and the camera's own snapshot.
 *
 * Bounds (docs/product.md §9): the whole test at most the connection timeout (60 s), the snapshot at most
 * the snapshot timeout (15 s). The phone decodes no video, so a camera reached by RTSP address alone has no
 * snapshot (`snapshot: null`); the verdict does not depend on it.
 */
import {
  CAMERA_CONFIGURATION_ERRORS,
  HELPER_CONNECTION_TIMEOUT_MS,
  HELPER_SNAPSHOT_TIMEOUT_MS,
  type CameraConfigurationErrorCode,
  type HelperCameraTestResult,
  type HelperVideoInfo,
  type StreamConnectionInput,
} from '@homesitter/contract';
import { isSoap, refusedLogin } from '../discovery/onvif-identify.js';
import { elements, elementText, hasElement } from '../discovery/xml.js';
import {
  mediaServiceAddress,
  mediaUri,
  parseProfiles,
  REQUESTS,
  securedEnvelope,
  type OnvifProfile,
} from './onvif-requests.js';
import { sdpVideo } from './sdp.js';
import { isAnswer, type CameraTransport, type ExchangeResult } from './transport.js';

const ONVIF_DEVICE_PATH = '/onvif/device_service';
const MAX_SOAP_BYTES = 256 * 1024;
/** A camera's JPEG snapshot; larger ones are refused (and the test goes on without a preview). */
const MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024;
const EVENTS_NS = 'http://www.onvif.org/ver10/events/wsdl';

export interface CameraCheckOptions {
  transport: CameraTransport;
  connection: StreamConnectionInput;
  /** Default HELPER_CONNECTION_TIMEOUT_MS (60 s). */
  timeoutMs?: number;
  /** Default HELPER_SNAPSHOT_TIMEOUT_MS (15 s). */
  snapshotTimeoutMs?: number;
}

class CheckFailure extends Error {
  constructor(readonly code: CameraConfigurationErrorCode) {
    super(code);
  }
}

/** Tests one camera; never rejects (every failure is a verdict). */
export async function checkCameraOverTransport(options: CameraCheckOptions): Promise<HelperCameraTestResult> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? HELPER_CONNECTION_TIMEOUT_MS;
  const deadline = started + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const failed = (code: CameraConfigurationErrorCode): HelperCameraTestResult => ({
    verdict: code === 'no_supported_stream' ? 'unsupported' : 'failed',
    error_code: code,
    message: failureMessage(code, timeoutMs),
    snapshot: null,
    video: null,
    sub_video: null,
    audio_codec: null,
    device: null,
    motion_source: null,
    elapsed_ms: Date.now() - started,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<HelperCameraTestResult>((resolve) => {
    timer = setTimeout(() => resolve(failed('timed_out')), timeoutMs);
  });
  const check = (async (): Promise<HelperCameraTestResult> => {
    try {
      const found =
        options.connection.type === 'onvif'
          ? await checkOnvif(options, options.connection, left)
          : await checkRtsp(options, options.connection, left);
      return { ...found, elapsed_ms: Date.now() - started };
    } catch (err) {
      if (err instanceof CheckFailure) return failed(err.code);
      return failed('invalid_response');
    }
  })();
  try {
    return await Promise.race([check, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The contract's sentence, with this test's own timeout (the helper's failureMessage does the same). */
export function failureMessage(code: CameraConfigurationErrorCode, timeoutMs: number): string {
  if (code === 'timed_out')
    return `The camera did not answer in time (${Math.round(timeoutMs / 1000)} seconds).`;
  return CAMERA_CONFIGURATION_ERRORS[code];
}

type Found = Omit<HelperCameraTestResult, 'elapsed_ms'>;

async function checkOnvif(
  options: CameraCheckOptions,
  connection: Extract<StreamConnectionInput, { type: 'onvif' }>,
  left: () => number,
): Promise<Found> {
  const { transport } = options;
  const login = { username: connection.username, password: connection.password };
  const port = connection.port ?? 80;
  const deviceService = `http://${connection.host}${port === 80 ? '' : `:${port}`}${ONVIF_DEVICE_PATH}`;
  const ask = async (url: string, operation: string): Promise<string> => {
    const answer = await transport.http({
      url,
      method: 'POST',
      headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      body: await securedEnvelope(operation, login),
      ...login,
      timeoutMs: left(),
      maxBytes: MAX_SOAP_BYTES,
      responseType: 'text',
    });
    if (!isAnswer(answer)) throw new CheckFailure(answer.error);
    const soap = { status: answer.status, xml: answer.body };
    if (refusedLogin(soap)) throw new CheckFailure('wrong_credentials');
    if (!isSoap(soap) || hasElement(soap.xml, 'Fault')) throw new CheckFailure('invalid_response');
    return soap.xml;
  };

  const information = await ask(deviceService, REQUESTS.deviceInformation);
  const services = await ask(deviceService, REQUESTS.services).catch((err: unknown) => {
    // Older devices answer GetServices with a fault: their media service is then at the device service.
    if (err instanceof CheckFailure && err.code === 'invalid_response') return '';
    throw err;
  });
  const mediaService = sameHost(mediaServiceAddress(services), connection.host) ?? deviceService;
  const profiles = parseProfiles(await ask(mediaService, REQUESTS.profiles));
  const h264 = profiles
    .filter((profile) => profile.encoding?.toUpperCase() === 'H264')
    .sort((a, b) => area(b) - area(a));
  const main = h264[0];
  if (!main) throw new CheckFailure('no_supported_stream');
  const sub = h264.length > 1 ? h264[h264.length - 1]! : null;

  const streamUrl = sameHost(
    mediaUri(await ask(mediaService, REQUESTS.streamUri(main.token))),
    connection.host,
  );
  if (!streamUrl) throw new CheckFailure('invalid_response');
  const described = await describe(transport, streamUrl, login, left());
  const snapshotUrl = sameHost(
    mediaUri(await ask(mediaService, REQUESTS.snapshotUri(main.token)).catch(() => '')),
    connection.host,
  );
  const snapshot = snapshotUrl
    ? await takeSnapshot(
        transport,
        snapshotUrl,
        login,
        Math.min(left(), options.snapshotTimeoutMs ?? HELPER_SNAPSHOT_TIMEOUT_MS),
      )
    : null;
  const hasEvents = elements(services, 'Namespace').includes(EVENTS_NS);
  return {
    verdict: 'works',
    error_code: null,
    message: 'Homesitter can record this camera.',
    snapshot,
    video: {
      codec: described.codec,
      width: described.width ?? main.width ?? 0,
      height: described.height ?? main.height ?? 0,
      fps: described.fps ?? main.fps,
    },
    sub_video: sub ? profileVideo(sub) : null,
    audio_codec: null,
    device: {
      manufacturer: elementText(information, 'Manufacturer'),
      model: elementText(information, 'Model'),
      firmware: elementText(information, 'FirmwareVersion'),
    },
    motion_source: hasEvents ? 'onvif' : 'frames',
  };
}

async function checkRtsp(
  options: CameraCheckOptions,
  connection: Extract<StreamConnectionInput, { type: 'rtsp' }>,
  left: () => number,
): Promise<Found> {
  const login =
    connection.username !== undefined
      ? { username: connection.username, password: connection.password ?? '' }
      : undefined;
  const video = await describe(options.transport, connection.url, login, left());
  return {
    verdict: 'works',
    error_code: null,
    message: 'Homesitter can record this camera.',
    snapshot: null,
    video: { codec: video.codec, width: video.width ?? 0, height: video.height ?? 0, fps: video.fps },
    sub_video: null,
    audio_codec: null,
    device: null,
    motion_source: 'frames',
  };
}

/** DESCRIBE of the stream: its H.264 video, or the failure the helper's ffprobe would have reported. */
async function describe(
  transport: CameraTransport,
  url: string,
  login: { username: string; password: string } | undefined,
  timeoutMs: number,
) {
  const answer: ExchangeResult = await transport.rtsp({ url, method: 'DESCRIBE', ...login, timeoutMs });
  if (!isAnswer(answer)) throw new CheckFailure(answer.error);
  if (answer.status === 401 || answer.status === 403) throw new CheckFailure('wrong_credentials');
  // No stream at that path: "check the address" fixes it (rtsp-probe.ts says why this is not invalid_response).
  if (answer.status === 404) throw new CheckFailure('unreachable');
  if (answer.status !== 200) throw new CheckFailure('invalid_response');
  const video = sdpVideo(answer.body);
  if (!video || video.codec !== 'h264') throw new CheckFailure('no_supported_stream');
  return video;
}

async function takeSnapshot(
  transport: CameraTransport,
  url: string,
  login: { username: string; password: string },
  timeoutMs: number,
): Promise<string | null> {
  const answer = await transport.http({
    url,
    method: 'GET',
    headers: { Accept: 'image/jpeg' },
    ...login,
    timeoutMs,
    maxBytes: MAX_SNAPSHOT_BYTES,
    responseType: 'base64',
  });
  if (!isAnswer(answer) || answer.status !== 200 || !answer.body.startsWith('/9j/')) return null;
  return `data:image/jpeg;base64,${answer.body}`;
}

/**
 * A URL the camera named, if it points at the camera itself: a device's answer may not send the phone to
 * another host (the same rule as discovery's follow-up). Null otherwise.
 */
function sameHost(url: string | null, host: string): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname === host ? url : null;
  } catch {
    return null;
  }
}

function area(profile: OnvifProfile): number {
  return (profile.width ?? 0) * (profile.height ?? 0);
}

function profileVideo(profile: OnvifProfile): HelperVideoInfo {
  return { codec: 'h264', width: profile.width ?? 0, height: profile.height ?? 0, fps: profile.fps };
}
