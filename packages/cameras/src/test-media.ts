import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './clip.js';
import { defaultFfmpegPath, defaultFfprobePath } from './ffmpeg-path.js';
import { testMedia } from './testing/media.js';
import type { CameraLogger } from './types.js';

/**
 * Test media for this package's tests (never imported by product code): the repository's test media (found
 * by `testing/media.ts`), and media made from them or generated with ffmpeg into a temp dir at test time.
 */

export const ffmpegPath = defaultFfmpegPath();
export const ffprobePath = defaultFfprobePath();

/** The full path of a test media file (a missing one throws). */
export const fixture = testMedia;

export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'homesitter-cameras-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export function ffmpeg(args: string[]): Promise<Buffer> {
  return runFfmpeg(ffmpegPath, ['-y', ...args]);
}

/** ffprobe's answer as JSON. */
export function probe(path: string, args: string[] = ['-show_format', '-show_streams']): ProbeResult {
  const out = execFileSync(ffprobePath, ['-v', 'error', '-of', 'json', ...args, path], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out) as ProbeResult;
}

export interface ProbeResult {
  format?: { duration?: string; format_name?: string };
  streams?: {
    codec_name?: string;
    codec_type?: string;
    width?: number;
    height?: number;
    nb_read_frames?: string;
  }[];
}

/** An H.264 stream of a still image, keyframe every 10 frames: a camera looking at nothing happening. */
export async function stillStream(image: string, seconds: number, out: string, fps = 10): Promise<string> {
  // prettier-ignore
  await ffmpeg([
    '-loop', '1', '-framerate', String(fps), '-t', String(seconds), '-i', image,
    '-vf', 'scale=768:432,format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', out,
  ]);
  return out;
}

export interface PatternClipOptions {
  seconds: number;
  fps: number;
  /** H.264 profile and level, as a camera would stream them (e.g. main 3.1, baseline 2.2). */
  profile: 'baseline' | 'main';
  level: string;
}

/**
 * A camera-like H.264 clip of ffmpeg's test pattern, 768x432 with a keyframe every second (exactly: no scene
 * cuts), for tests where the picture does not matter (MP4 splitting, HLS). Written to `out`.
 */
export async function patternClip(out: string, opts: PatternClipOptions): Promise<string> {
  // prettier-ignore
  await ffmpeg([
    '-f', 'lavfi', '-i', `testsrc=size=768x432:rate=${opts.fps}`, '-t', String(opts.seconds),
    // ultrafast leaves CABAC out, and x264 then labels even a "main" stream constrained baseline.
    '-c:v', 'libx264', '-preset', opts.profile === 'main' ? 'veryfast' : 'ultrafast', '-pix_fmt', 'yuv420p',
    '-profile:v', opts.profile, '-level', opts.level,
    '-g', String(opts.fps), '-keyint_min', String(opts.fps), '-sc_threshold', '0', out,
  ]);
  return out;
}

/** The first and the last frame of a clip as JPEGs. */
export async function endFrames(clip: string, dir: string): Promise<{ first: string; last: string }> {
  const first = join(dir, 'first.jpg');
  const last = join(dir, 'last.jpg');
  await ffmpeg(['-i', clip, '-frames:v', '1', '-q:v', '2', first]);
  await ffmpeg(['-sseof', '-0.5', '-i', clip, '-update', '1', '-q:v', '2', last]);
  return { first, last };
}

/**
 * A camera that sees an empty room for `before` s, then clip-person (a woman walks in), then the room as she
 * left it for `after` s: one motion event in the middle.
 */
export async function personStream(dir: string, before = 3, after = 30): Promise<string> {
  const clip = fixture('clip-person.mp4');
  const { first, last } = await endFrames(clip, dir);
  const out = join(dir, 'person-stream.mp4');
  // prettier-ignore
  await ffmpeg([
    '-loop', '1', '-framerate', '10', '-t', String(before), '-i', first,
    '-i', clip,
    '-loop', '1', '-framerate', '10', '-t', String(after), '-i', last,
    '-filter_complex',
    '[0:v]scale=768:432,setsar=1,format=yuv420p[a];[1:v]fps=10,setsar=1,format=yuv420p[b];' +
      '[2:v]scale=768:432,setsar=1,format=yuv420p[c];[a][b][c]concat=n=3:v=1:a=0[v]',
    '-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', out,
  ]);
  return out;
}

/** A video's frames as small gray frames, the way the frame source decodes them (`fps` null: every frame). */
export async function grayFrames(
  file: string,
  width = 320,
  height = 180,
  fps: number | null = 5,
): Promise<Uint8Array[]> {
  const filter = `${fps ? `fps=${fps},` : ''}scale=${width}:${height}`;
  // prettier-ignore
  const raw = await runFfmpeg(ffmpegPath, [
    '-i', file, '-an', '-vf', filter, '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1',
  ]);
  const size = width * height;
  const frames: Uint8Array[] = [];
  for (let at = 0; at + size <= raw.length; at += size)
    frames.push(new Uint8Array(raw.subarray(at, at + size)));
  return frames;
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps its lines for assertions. */
export function memoryLog(): CameraLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (obj: Record<string, unknown>, msg: string): void =>
      void lines.push({ level, obj, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Resolves with the first event that passes `test`; the timeout is only a safety net. */
export function waitFor<T>(
  subscribe: (listener: (value: T) => void) => () => void,
  test: (value: T) => boolean = () => true,
  timeoutMs = 45_000,
): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = subscribe((value) => {
      if (!test(value)) return;
      clearTimeout(timer);
      off();
      resolvePromise(value);
    });
  });
}

/** ffmpeg processes that are children of this test process (none may outlive a `stop()`). */
export function childFfmpegs(): number[] {
  try {
    const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, comm]) => comm === 'ffmpeg')
      .map(([pid]) => Number(pid));
  } catch {
    return [];
  }
}

/** A file as the stream pull would emit it: fragmented MP4, a fragment per frame. */
export function fragmented(file: string, codecArgs: string[] = ['-c:v', 'copy', '-an']): Promise<Buffer> {
  // prettier-ignore
  return runFfmpeg(ffmpegPath, [
    '-i', file, ...codecArgs, '-f', 'mp4',
    '-movflags', 'frag_keyframe+empty_moov+default_base_moof+frag_every_frame', 'pipe:1',
  ]);
}

/** Feeds a byte stream to a reader in uneven chunks (1 byte to ~5 KB), as a pipe might deliver it. */
export function chunked(data: Buffer, seed = 1): Buffer[] {
  const chunks: Buffer[] = [];
  let state = seed;
  for (let at = 0; at < data.length;) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const size = state % 7 === 0 ? 1 : (state % 5000) + 1;
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** Command lines of this test process's ffmpeg children. */
export function childFfmpegCommands(): string[] {
  try {
    const out = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    return out.split('\n').filter((line) => line.includes('ffmpeg'));
  } catch {
    return [];
  }
}
