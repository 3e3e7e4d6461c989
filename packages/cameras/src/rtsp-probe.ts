/**
 * Looking at one RTSP stream with ffprobe/ffmpeg: which video and audio it carries, and its first frame.
 *
 * Both run over RTSP-over-TCP (interleaved); UDP is tried only when the camera refuses TCP (461). Each call is
 * bounded twice: the demuxer's socket timeout (`-timeout` in microseconds, or `-stimeout` on builds where
 * `-timeout` still means the listen timeout) and a hard kill at `timeoutMs`. Failures are
 * `CameraConfigurationError`s classified from ffmpeg's stderr:
 *
 * | ffmpeg says                                                | code                  |
 * | ---------------------------------------------------------- | --------------------- |
 * | 401 Unauthorized, 403 Forbidden                            | `wrong_credentials`   |
 * | connection refused or reset, no route, network unreachable | `unreachable`         |
 * | 404 Not Found (no stream at that path)                     | `unreachable`         |
 * | connection timed out, or still running at the deadline     | `timed_out`           |
 * | 461 Unsupported Transport, over TCP and then UDP           | `no_supported_stream` |
 * | no video stream, nothing ffmpeg can decode                 | `no_supported_stream` |
 * | anything else (not RTSP, 5XX, other 4XX, bad SDP)          | `invalid_response`    |
 *
 * A 404 is `unreachable` on purpose: the server did answer RTSP, but the stream the address names is not
 * there, and "check the address" is the advice that fixes it (a typo in the path), where `invalid_response`
 * ("not ONVIF or RTSP") would send the owner looking for the wrong problem.
 *
 * The login travels inside the URL handed to ffmpeg (percent-encoded; ffmpeg decodes it for Basic and Digest).
 * Error messages carry ffmpeg's own words with every login taken out of them.
 */
import { spawn } from 'node:child_process';
import { defaultFfmpegPath, defaultFfprobePath } from './ffmpeg-path.js';
import {
  CameraConfigurationError,
  type ConfigurationErrorCode,
  type StreamAddress,
  type VideoInfo,
} from './types.js';

export interface ProbeResult {
  /** The stream's video (the first H.264 track when there are several), null when it carries none. */
  video: VideoInfo | null;
  /** ffprobe's codec name of the first audio track (`aac`, `pcm_mulaw`…), null when there is none. */
  audioCodec: string | null;
}

export interface ProbeOptions {
  /** Defaults to the packaged ffprobe. */
  ffprobePath?: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface GrabFrameOptions {
  /** Defaults to the packaged ffmpeg. */
  ffmpegPath?: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

type Transport = 'tcp' | 'udp';

/**
 * How long ffmpeg reads before it settles on the streams. H.264 over RTSP names its size in the SDP, so a
 * second is plenty; without that, ffprobe may answer a size of 0 and the caller takes it from the frame.
 */
const ANALYZE_DURATION_US = 1_000_000;
/** How long ffmpeg's own socket timeout outlasts the hard kill, so that a silent camera is `timed_out`. */
const SOCKET_TIMEOUT_SLACK_MS = 2_000;
const MAX_STDERR_CHARS = 64 * 1024;
const MAX_PROBE_OUTPUT_BYTES = 1024 * 1024;
const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** Reads the stream's video and audio with `ffprobe -show_streams`. */
export async function probeRtsp(address: StreamAddress, options: ProbeOptions): Promise<ProbeResult> {
  const bin = options.ffprobePath ?? defaultFfprobePath();
  const output = await runOverRtsp(bin, address, options, MAX_PROBE_OUTPUT_BYTES, (input) => [
    ...input,
    '-show_streams',
    '-of',
    'json',
  ]);
  return parseProbeOutput(output.toString('utf8'));
}

/** Decodes the stream's first frame and answers it as a JPEG. */
export async function grabFrame(address: StreamAddress, options: GrabFrameOptions): Promise<Buffer> {
  const bin = options.ffmpegPath ?? defaultFfmpegPath();
  const jpeg = await runOverRtsp(bin, address, options, MAX_FRAME_BYTES, (input) => [
    '-nostdin',
    ...input,
    '-map',
    '0:v:0',
    '-an',
    '-frames:v',
    '1',
    '-c:v',
    'mjpeg',
    '-pix_fmt',
    'yuvj420p',
    '-q:v',
    '3',
    '-f',
    'image2pipe',
    'pipe:1',
  ]);
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) {
    throw new CameraConfigurationError('no_supported_stream', 'ffmpeg decoded no frame');
  }
  return jpeg;
}

/** The width and height in a JPEG's start-of-frame segment; null when there is none. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1]!;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(offset + 5), width: jpeg.readUInt16BE(offset + 7) };
    }
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  return null;
}

/** The stream URL with the login inside (percent-encoded), as ffmpeg takes it. A login already in `url` is replaced. */
export function urlWithLogin(address: StreamAddress): string {
  const url = new URL(address.url);
  if (!address.username && !address.password) {
    return `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  }
  const login = `${encodeURIComponent(address.username ?? '')}:${encodeURIComponent(address.password ?? '')}`;
  return `${url.protocol}//${login}@${url.host}${url.pathname}${url.search}`;
}

/** Takes logins out of text that may quote a URL: `user:pass@` parts, and the password wherever it appears. */
export function redactLogin(text: string, address: Pick<StreamAddress, 'password'>): string {
  let safe = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1');
  const password = address.password;
  if (password) {
    for (const secret of new Set([password, encodeURIComponent(password)])) {
      safe = safe.split(secret).join('***');
    }
  }
  return safe;
}

/**
 * What an ffmpeg/ffprobe failure means for the owner, from its stderr (see the table at the top). The
 * message holds ffmpeg's last meaningful line with logins removed.
 */
export function classifyFfmpegFailure(
  stderr: string,
  address: Pick<StreamAddress, 'password'> = {},
): CameraConfigurationError {
  const code = failureCode(stderr);
  const line = lastMeaningfulLine(stderr);
  return new CameraConfigurationError(code, line ? redactLogin(line, address) : undefined);
}

/** The camera refused the RTP transport we asked for (RTSP 461). */
const TRANSPORT_REFUSED = /failed: 461\b|Unsupported Transport/i;

function failureCode(stderr: string): ConfigurationErrorCode {
  if (/failed: 40[13]\b|Server returned 40[13]\b|authorization failed|access denied/i.test(stderr)) {
    return 'wrong_credentials';
  }
  if (/failed: 404\b|Server returned 404\b/i.test(stderr)) return 'unreachable';
  if (TRANSPORT_REFUSED.test(stderr)) return 'no_supported_stream';
  if (/Connection timed out|Operation timed out|ETIMEDOUT/i.test(stderr)) return 'timed_out';
  if (
    /Connection refused|No route to host|Network is unreachable|Host is unreachable|Connection reset by peer|Name or service not known|Temporary failure in name resolution/i.test(
      stderr,
    )
  ) {
    return 'unreachable';
  }
  if (
    /matches no streams|does not contain any stream|Decoder \(codec [^)]*\) not found|Unsupported codec|no decoder|Could not find codec parameters/i.test(
      stderr,
    )
  ) {
    return 'no_supported_stream';
  }
  return 'invalid_response';
}

function lastMeaningfulLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^(\{|\}|\[|\]|"|Exiting normally)/.test(l));
  return lines.at(-1)?.slice(0, 300);
}

/** Parses `ffprobe -show_streams -of json` output. */
export function parseProbeOutput(json: string): ProbeResult {
  let streams: unknown[];
  try {
    const parsed = JSON.parse(json) as { streams?: unknown };
    streams = Array.isArray(parsed.streams) ? (parsed.streams as unknown[]) : [];
  } catch {
    throw new CameraConfigurationError('invalid_response', 'ffprobe answered no readable stream list');
  }
  const read = streams.map((s) => {
    const o = (typeof s === 'object' && s !== null ? s : {}) as Record<string, unknown>;
    return {
      type: typeof o.codec_type === 'string' ? o.codec_type : '',
      codec: typeof o.codec_name === 'string' ? o.codec_name : 'unknown',
      width: typeof o.width === 'number' ? o.width : 0,
      height: typeof o.height === 'number' ? o.height : 0,
    };
  });
  const videos = read.filter((s) => s.type === 'video');
  const video = videos.find((s) => s.codec === 'h264') ?? videos[0];
  const audio = read.find((s) => s.type === 'audio');
  return {
    video: video ? { codec: video.codec, width: video.width, height: video.height } : null,
    audioCodec: audio ? audio.codec : null,
  };
}

// ---- running ffmpeg ----

interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Runs `bin` against the stream over TCP, and once more over UDP when the camera refuses TCP. */
async function runOverRtsp(
  bin: string,
  address: StreamAddress,
  options: RunOptions,
  maxStdout: number,
  argsFor: (input: string[]) => string[],
): Promise<Buffer> {
  const deadline = Date.now() + options.timeoutMs;
  const timeoutFlag = await raceAbort(rtspSocketTimeoutOption(bin), options.signal);
  const attempt = async (transport: Transport) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new CameraConfigurationError('timed_out', 'no time left for the stream');
    const input = [
      '-hide_banner',
      '-v',
      'error',
      '-rtsp_transport',
      transport,
      ...(timeoutFlag ? [timeoutFlag, String((remaining + SOCKET_TIMEOUT_SLACK_MS) * 1000)] : []),
      '-analyzeduration',
      String(ANALYZE_DURATION_US),
      '-i',
      urlWithLogin(address),
    ];
    return run(bin, argsFor(input), { timeoutMs: remaining, signal: options.signal, maxStdout }, address);
  };

  let result = await attempt('tcp');
  if (result.ok) return result.stdout;
  if (TRANSPORT_REFUSED.test(result.stderr)) {
    result = await attempt('udp');
    if (result.ok) return result.stdout;
  }
  throw classifyFfmpegFailure(result.stderr, address);
}

type RunResult = { ok: true; stdout: Buffer } | { ok: false; stderr: string };

/**
 * Spawns one ffmpeg/ffprobe and waits for it; kills it (SIGKILL) at `timeoutMs` or on `signal`, which then
 * rejects with `timed_out` (or with the signal's reason when that is a `CameraConfigurationError`).
 */
function run(
  bin: string,
  args: string[],
  options: RunOptions & { maxStdout: number },
  address: Pick<StreamAddress, 'password'>,
): Promise<RunResult> {
  const { maxStdout } = options;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortError(options.signal));
      return;
    }
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let ended: CameraConfigurationError | null = null;

    const stop = (err: CameraConfigurationError) => {
      if (ended) return;
      ended = err;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new CameraConfigurationError('timed_out', `no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () => stop(abortError(options.signal!));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) {
        stop(new CameraConfigurationError('invalid_response', 'ffmpeg answered more than expected'));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS);
    });
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      finish();
      // The binary is missing or not executable: the server's fault, not the camera's.
      reject(new Error(`cannot run ${bin}: ${redactLogin(err.message, address)}`));
    });
    child.on('close', (code) => {
      finish();
      if (ended) reject(ended);
      else if (code === 0) resolve({ ok: true, stdout: Buffer.concat(stdout) });
      else resolve({ ok: false, stderr });
    });
  });
}

function abortError(signal: AbortSignal): CameraConfigurationError {
  const reason: unknown = signal.reason;
  return reason instanceof CameraConfigurationError
    ? reason
    : new CameraConfigurationError('timed_out', 'aborted');
}

const timeoutFlags = new Map<string, Promise<'-timeout' | '-stimeout' | null>>();

/**
 * The RTSP demuxer's socket I/O timeout option of this ffmpeg/ffprobe build (asked once per binary):
 * `-timeout` (microseconds) since FFmpeg 5, but `-stimeout` before, where `-timeout` is the *listen* timeout
 * and would turn the client into a server. Null when the build names neither (the hard kill still bounds).
 */
export function rtspSocketTimeoutOption(bin: string): Promise<'-timeout' | '-stimeout' | null> {
  let flag = timeoutFlags.get(bin);
  if (!flag) {
    flag = run(bin, ['-hide_banner', '-h', 'demuxer=rtsp'], { timeoutMs: 10_000, maxStdout: 1024 * 1024 }, {})
      .then((result) => {
        if (!result.ok) return null;
        const help = result.stdout.toString('utf8');
        if (/^\s*-stimeout\b/m.test(help)) return '-stimeout';
        if (/^\s*-timeout\b.*microseconds/m.test(help)) return '-timeout';
        return null;
      })
      .catch((err: unknown) => {
        timeoutFlags.delete(bin);
        throw err;
      });
    timeoutFlags.set(bin, flag);
  }
  return flag;
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
