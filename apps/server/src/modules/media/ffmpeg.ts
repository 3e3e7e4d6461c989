import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveMediaTool } from './tool-paths.js';

/**
 * Clips through ffmpeg and ffprobe (tool-paths.ts: the npm packages' static builds, or FFMPEG_PATH /
 * FFPROBE_PATH).
 * Every call spawns the binary with an argument array (no shell, so no file name is ever interpreted), is
 * killed after a timeout, and on failure carries the tail of ffmpeg's stderr for the log.
 */

/** What a clip is: enough to decide how to stream it and to show it at the right size. */
export interface ClipInfo {
  /** Seconds, or null when the container does not say (some raw camera streams). */
  durationSeconds: number | null;
  width: number;
  height: number;
  /** The video codec as ffprobe names it: h264, hevc, mjpeg… */
  codec: string;
  /** Pixel format of the video (yuv420p, yuvj420p, yuv422p10le…). */
  pixelFormat: string | null;
  /** The first audio stream's codec, or null when the clip is silent. */
  audioCodec: string | null;
}

export interface HlsResult {
  /** File name of the playlist inside the output folder. */
  playlist: string;
  /** Every file written (playlist, init segment, media segments), by name, playlist last. */
  files: string[];
  /** False when the video was copied as it was (H.264 4:2:0), true when it was re-encoded to H.264. */
  transcoded: boolean;
}

/** The file is not a clip ffmpeg can read (no video stream, damaged, truncated to nothing…). */
export class UnreadableClipError extends Error {}

/**
 * ffmpeg or ffprobe could not be started at all (missing, not executable): no retry helps until it is
 * installed; processing keeps what it can without it (see tools.ts).
 */
export class MediaToolMissingError extends Error {
  constructor(
    readonly tool: string,
    readonly reason: string,
  ) {
    super(`${tool} ${reason}; run npm ci, or set FFMPEG_PATH and FFPROBE_PATH to working binaries`);
  }
}

/** The error a failed spawn of `bin` becomes: a missing binary is told apart from other start failures. */
export function startFailure(bin: string, err: NodeJS.ErrnoException): Error {
  if (err.code === 'ENOENT') return new MediaToolMissingError(bin, 'was not found');
  if (err.code === 'EACCES') return new MediaToolMissingError(bin, 'is not executable');
  return new MediaToolError(`${bin} could not start`, '', { cause: err });
}

/** ffmpeg or ffprobe failed or hung for a reason that may not be the file's (missing binary, timeout). */
export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly stderr = '',
    options?: ErrorOptions,
  ) {
    super(stderr ? `${message}: ${stderr}` : message, options);
  }
}

export interface FfmpegOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  /** Longest a probe or poster may take. */
  quickTimeoutMs?: number;
  /** Longest an HLS conversion may take, whatever the clip's length. */
  hlsTimeoutMs?: number;
}

/** HLS segment length; players start after the first one, so short segments start playback sooner. */
export const HLS_SEGMENT_SECONDS = 4;
/** The poster's longest edge in pixels: a list thumbnail and a player poster at once. */
export const POSTER_EDGE = 640;
export const HLS_PLAYLIST = 'index.m3u8';
const HLS_INIT = 'init.mp4';

const STDERR_TAIL = 4_000;
const MAX_STDOUT = 32 * 1024 * 1024;

interface RunResult {
  stdout: Buffer;
  stderr: string;
}

class ExitError extends Error {
  constructor(
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`exited with ${code}`);
  }
}

function run(bin: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_STDOUT) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(startFailure(bin, err));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new MediaToolError(`${bin} took longer than ${timeoutMs} ms`, stderr.trim()));
      else if (outBytes > MAX_STDOUT)
        reject(new MediaToolError(`${bin} wrote more than ${MAX_STDOUT} bytes`));
      else if (code !== 0) reject(new ExitError(code, stderr.trim()));
      else resolve({ stdout: Buffer.concat(out), stderr });
    });
  });
}

interface ProbeJson {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    duration?: string;
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
  }[];
  format?: { duration?: string };
}

const positive = (v: string | undefined) => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** H.264 that every browser's MSE and Safari's HLS decode: 8-bit 4:2:0. Anything else is re-encoded. */
function isBrowserSafeH264(info: ClipInfo): boolean {
  return info.codec === 'h264' && (info.pixelFormat === 'yuv420p' || info.pixelFormat === 'yuvj420p');
}

export function createFfmpeg(options: FfmpegOptions = {}) {
  const ffmpeg = options.ffmpegPath ?? resolveMediaTool('ffmpeg').path;
  const ffprobe = options.ffprobePath ?? resolveMediaTool('ffprobe').path;
  const quickTimeoutMs = options.quickTimeoutMs ?? 20_000;
  const hlsTimeoutMs = options.hlsTimeoutMs ?? 180_000;

  /** Runs ffmpeg; a non-zero exit means the input could not be read (the usual reason), with stderr. */
  async function runFfmpeg(args: string[], timeoutMs: number, what: string): Promise<RunResult> {
    try {
      return await run(ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], timeoutMs);
    } catch (err) {
      if (err instanceof ExitError) throw new UnreadableClipError(`${what} failed: ${err.stderr}`);
      throw err;
    }
  }

  async function probe(file: string): Promise<ClipInfo> {
    let result: RunResult;
    try {
      result = await run(
        ffprobe,
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
        quickTimeoutMs,
      );
    } catch (err) {
      if (err instanceof ExitError) throw new UnreadableClipError(`not a readable clip: ${err.stderr}`);
      throw err;
    }
    const json = JSON.parse(result.stdout.toString('utf8')) as ProbeJson;
    const streams = json.streams ?? [];
    const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
    if (!video?.codec_name || !video.width || !video.height) {
      throw new UnreadableClipError('the file has no video stream');
    }
    const audio = streams.find((s) => s.codec_type === 'audio');
    // A phone-style rotation flag turns the picture; what viewers see is the rotated size.
    const rotation = Math.abs(Number(video.tags?.rotate ?? video.side_data_list?.[0]?.rotation ?? 0)) % 180;
    return {
      durationSeconds: positive(json.format?.duration) ?? positive(video.duration),
      width: rotation === 90 ? video.height : video.width,
      height: rotation === 90 ? video.width : video.height,
      codec: video.codec_name,
      pixelFormat: video.pix_fmt ?? null,
      audioCodec: audio?.codec_name ?? null,
    };
  }

  async function grab(file: string, atSeconds: number): Promise<Buffer> {
    const { stdout } = await runFfmpeg(
      [
        // Seeking before -i jumps to the nearest keyframe first, so a poster costs one GOP, not the clip.
        ...(atSeconds > 0 ? ['-ss', atSeconds.toFixed(2)] : []),
        '-i',
        file,
        '-an',
        '-frames:v',
        '1',
        '-vf',
        `scale='min(${POSTER_EDGE},iw)':'min(${POSTER_EDGE},ih)':force_original_aspect_ratio=decrease,format=yuvj420p`,
        '-c:v',
        'mjpeg',
        '-q:v',
        '4',
        '-f',
        'image2pipe',
        'pipe:1',
      ],
      quickTimeoutMs,
      'poster',
    );
    return stdout;
  }

  /**
   * A JPEG of the clip's middle frame (where a motion clip's subject usually is; the first frames are often
   * the camera's pre-roll of an empty scene), at most POSTER_EDGE px on its longest side.
   */
  async function poster(file: string, info?: ClipInfo): Promise<Buffer> {
    const duration = (info ?? (await probe(file))).durationSeconds;
    const at = duration ? duration / 2 : 0;
    const jpeg = await grab(file, at);
    if (jpeg.length > 0) return jpeg;
    // A wrong duration in the container can put the middle past the end: the first frame is still a poster.
    const first = await grab(file, 0);
    if (first.length === 0) throw new UnreadableClipError('the clip has no frame to show');
    return first;
  }

  /**
   * HLS with fMP4 segments in `outDir` (which must exist and be empty). H.264 in 8-bit 4:2:0 is copied,
   * which takes a fraction of a second; H.265, MJPEG and the rest are re-encoded to H.264, since
   * only Safari plays HEVC. The ultrafast preset keeps a 10 s 720p clip within the 3 s processing target on two
   * cores (veryfast took about three times as long); the files come out larger, which retention bounds. Audio becomes AAC (copied when it already is) or is left out.
   */
  async function toHls(file: string, outDir: string, info?: ClipInfo): Promise<HlsResult> {
    const clip = info ?? (await probe(file));
    const copy = isBrowserSafeH264(clip);
    const video = copy
      ? ['-c:v', 'copy']
      : [
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-crf',
          '26',
          '-pix_fmt',
          'yuv420p',
          // Even dimensions (4:2:0 needs them) and a keyframe every segment, so segments cut on time.
          '-vf',
          'scale=trunc(iw/2)*2:trunc(ih/2)*2',
          '-force_key_frames',
          `expr:gte(t,n_forced*${HLS_SEGMENT_SECONDS})`,
        ];
    const audio =
      clip.audioCodec === null
        ? ['-an']
        : clip.audioCodec === 'aac'
          ? ['-map', '0:a:0', '-c:a', 'copy']
          : ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k'];
    const timeoutMs = copy
      ? Math.min(hlsTimeoutMs, 60_000)
      : Math.min(hlsTimeoutMs, Math.max(60_000, (clip.durationSeconds ?? 60) * 4_000));
    await runFfmpeg(
      [
        '-y',
        '-i',
        file,
        '-map',
        '0:v:0',
        ...video,
        ...audio,
        '-sn',
        '-dn',
        '-f',
        'hls',
        '-hls_time',
        String(HLS_SEGMENT_SECONDS),
        '-hls_playlist_type',
        'vod',
        '-hls_segment_type',
        'fmp4',
        '-hls_fmp4_init_filename',
        HLS_INIT,
        '-hls_segment_filename',
        join(outDir, 'seg%03d.m4s'),
        join(outDir, HLS_PLAYLIST),
      ],
      timeoutMs,
      copy ? 'HLS (copy)' : 'HLS (H.264)',
    );
    const names = (await readdir(outDir)).filter((n) => n !== HLS_PLAYLIST).sort();
    if (!names.includes(HLS_INIT) || !names.some((n) => n.endsWith('.m4s'))) {
      throw new UnreadableClipError('ffmpeg wrote no HLS segments');
    }
    return { playlist: HLS_PLAYLIST, files: [...names, HLS_PLAYLIST], transcoded: !copy };
  }

  return { probe, poster, toHls };
}
export type Ffmpeg = ReturnType<typeof createFfmpeg>;
