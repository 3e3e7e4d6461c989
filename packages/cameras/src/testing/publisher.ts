/**
 * Publishes test scenes to an RTSP server in real time with ffmpeg, as a camera would stream them. Scenes
 * from files are encoded once into a temp dir (kept for later test processes) and then sent with `-c copy`,
 * so a publication costs almost no CPU on a small test machine; only `clock` is encoded live (its picture
 * is the time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { testMedia } from './media.js';
import type { RtspTestServer } from './rtsp-server.js';

const require = createRequire(import.meta.url);
const FFMPEG: string =
  process.env.FFMPEG_PATH ?? (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const FFPROBE: string =
  process.env.FFPROBE_PATH ?? (require('@ffprobe-installer/ffprobe') as { path: string }).path;

/**
 * - `still`: the empty driveway photo, unchanging (a motion detector sees nothing).
 * - `person-walks-in`: an empty room; a person walks in about 4 s into the scene and stands there until
 *   about 8 s (clip-person.mp4), then the empty room again; 20 s, repeated.
 * - `clock`: black/white blocks carrying the wall-clock time each frame was made (see `decodeClock`).
 * - `loop:<file>`: a file (absolute, or a name in the test media, test-media/) looped forever.
 */
export type Scene = 'still' | 'person-walks-in' | 'clock' | `loop:${string}`;

export interface PublishOptions {
  /** Picture size; default 1280x720 (a `loop:` file keeps its own size unless one is given). */
  width?: number;
  height?: number;
  /** Frames per second; default 10 (15 for `clock`). */
  fps?: number;
  /** Frames from one keyframe to the next; default one second's worth. */
  gop?: number;
  /** Also publish a smaller copy of the scene, by default 640x360 at the main URL's sibling path `sub`. */
  sub?: boolean | { width?: number; height?: number; url?: string };
  /** Adds an AAC tone as an audio track to the main publication (cameras with a microphone). */
  audio?: boolean;
  /** Receives ffmpeg's stderr lines (for debugging a test). */
  log?: (line: string) => void;
}

export interface Publication {
  /** The RTSP URLs published: the main one first, then the sub stream's when asked for. */
  urls: string[];
  /** Stops ffmpeg (it tears its sessions down) and resolves when it has exited. */
  stop(): Promise<void>;
  /** Resolves when ffmpeg exits for any reason (e.g. the server went away). */
  exited: Promise<void>;
}

/** A scene's source file: an absolute path as given, else a name in the test media. */
function fixture(name: string): string {
  return isAbsolute(name) ? name : testMedia(name);
}

/**
 * Made scenes are kept in one folder under the temp dir, named by what they contain, so later test processes
 * (vitest runs each file in its own) reuse them instead of encoding again.
 */
function scenesDirectory(): string {
  const dir = join(tmpdir(), `homesitter-test-scenes-${SCENE_VERSION}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}: ${err}`)),
    );
  });
}

async function videoCodec(file: string): Promise<string> {
  const out = await run(FFPROBE, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name',
    '-of',
    'csv=p=0',
    file,
  ]);
  return out.trim();
}

interface Size {
  width: number;
  height: number;
  fps: number;
  gop: number;
}

const X264 = (size: Size) => [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-pix_fmt',
  'yuv420p',
  '-g',
  String(size.gop),
  '-keyint_min',
  String(size.gop),
  '-sc_threshold',
  '0',
  '-an',
];

/** Bumped when the way scenes are made changes, so old files are not reused. */
const SCENE_VERSION = 2;

const prepared = new Map<string, Promise<string>>();

/** An H.264 MP4 of the scene at that size, made once and then reused (by later tests and test processes). */
function prepareScene(scene: Exclude<Scene, 'clock'>, size: Size | null): Promise<string> {
  const key = JSON.stringify([scene, size]);
  let file = prepared.get(key);
  if (!file) {
    file = makeScene(scene, size);
    prepared.set(key, file);
    // A failed encode is not cached: the next test tries again and reports its own error.
    file.catch(() => prepared.delete(key));
  }
  return file;
}

async function makeScene(scene: Exclude<Scene, 'clock'>, size: Size | null): Promise<string> {
  const source = scene.startsWith('loop:') ? fixture(scene.slice('loop:'.length)) : null;
  if (source && !size && (await videoCodec(source)) === 'h264') return source;
  // A changed source file makes a new scene.
  const stamp = source ? statSync(source).mtimeMs : 0;
  const name = createHash('sha1')
    .update(JSON.stringify([scene, size, source, stamp]))
    .digest('hex')
    .slice(0, 16);
  const file = join(scenesDirectory(), `${name}.mp4`);
  if (existsSync(file)) return file;
  // Written under a name of its own, then renamed: a parallel test process never reads half a file.
  const out = join(scenesDirectory(), `${name}.${process.pid}.${Date.now()}.part.mp4`);
  await encodeScene(scene, size, source, out);
  await rename(out, file);
  return file;
}

async function encodeScene(
  scene: Exclude<Scene, 'clock'>,
  size: Size | null,
  source: string | null,
  out: string,
): Promise<void> {
  if (source) {
    const s = size ?? { width: -2, height: -2, fps: 10, gop: 10 };
    const scale = size ? `scale=${s.width}:${s.height},setsar=1,fps=${s.fps}` : `fps=${s.fps}`;
    await run(FFMPEG, ['-v', 'error', '-y', '-i', source, '-vf', scale, ...X264(s), out]);
    return;
  }
  const s = size ?? { width: 1280, height: 720, fps: 10, gop: 10 };
  if (scene === 'still') {
    await run(FFMPEG, [
      '-v',
      'error',
      '-y',
      '-loop',
      '1',
      '-framerate',
      String(s.fps),
      '-i',
      fixture('empty-driveway.jpg'),
      '-t',
      '10',
      '-vf',
      `scale=${s.width}:${s.height},setsar=1`,
      ...X264(s),
      '-tune',
      'stillimage',
      out,
    ]);
    return;
  }
  // person-walks-in: the clip's first frame (the empty room) for 3 s, the clip from 5 s on (the first 5 s show
  // the same empty room; the person enters about 1 s later), then the empty room for 12 s, long enough for
  // a motion detector to see the motion end.
  const before = 3 * s.fps;
  const after = 12 * s.fps;
  const hold = (input: string, frames: number, output: string) =>
    `[${input}]trim=end_frame=1,loop=loop=${frames - 1}:size=1:start=0,setpts=N/(${s.fps}*TB)[${output}]`;
  await run(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-i',
    fixture('clip-person.mp4'),
    '-filter_complex',
    [
      `[0:v]scale=${s.width}:${s.height},setsar=1,fps=${s.fps},split=3[a][b][c]`,
      hold('a', before, 'first'),
      `[b]trim=start=5,setpts=PTS-STARTPTS[walk]`,
      hold('c', after, 'last'),
      `[first][walk][last]concat=n=3:v=1:a=0[v]`,
    ].join(';'),
    '-map',
    '[v]',
    ...X264(s),
    out,
  ]);
}

/** The bit grid of the clock scene: 8 columns by 5 rows, most significant bit top left. */
const CLOCK_COLUMNS = 8;
const CLOCK_ROWS = 5;

function clockFilter(fps: number): string {
  const bits = CLOCK_COLUMNS * CLOCK_ROWS;
  // RTCTIME (µs) as the frame's timestamp lets geq see the wall clock at the moment the frame is made.
  const ms = `mod(floor(T*1000),${2 ** bits})`;
  // Each bit is 2x2 source pixels: lavfi sources round odd sizes to even ones.
  const index = `(floor(Y/2)*${CLOCK_COLUMNS}+floor(X/2))`;
  const bit = `mod(floor(${ms}/pow(2,${bits - 1}-${index})),2)`;
  return [
    'format=gray',
    'settb=1/1000000',
    'setpts=RTCTIME',
    `geq=lum='255*${bit}'`,
    `setpts=N/(${fps}*TB)`,
  ].join(',');
}

/**
 * Reads the time a `clock` frame was made from its pixels (RGBA, e.g. a canvas's `getImageData`), as
 * milliseconds since the epoch; null when the picture is not a clock frame. Self-contained (no imports,
 * no outer constants) so a test can hand it to a browser with `page.evaluate`.
 */
export function decodeClock(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  now: number = Date.now(),
): number | null {
  const columns = 8;
  const rows = 5;
  const bits = columns * rows;
  let value = 0;
  for (let index = 0; index < bits; index++) {
    const column = index % columns;
    const row = Math.floor(index / columns);
    // The middle half of each block, away from edges the encoder blurs.
    let sum = 0;
    let count = 0;
    for (let dy = -0.25; dy <= 0.25; dy += 0.125) {
      for (let dx = -0.25; dx <= 0.25; dx += 0.125) {
        const x = Math.floor(((column + 0.5 + dx) * width) / columns);
        const y = Math.floor(((row + 0.5 + dy) * height) / rows);
        const offset = (y * width + x) * 4;
        sum += ((rgba[offset] ?? 0) + (rgba[offset + 1] ?? 0) + (rgba[offset + 2] ?? 0)) / 3;
        count++;
      }
    }
    const level = sum / count;
    if (level > 64 && level < 192) return null;
    value = value * 2 + (level >= 128 ? 1 : 0);
  }
  // The picture holds the time modulo 2^40 ms (about 35 years): take the full time nearest to `now`.
  const period = 2 ** bits;
  const base = now - (now % period);
  let best = base + value;
  for (const candidate of [best - period, best + period]) {
    if (Math.abs(candidate - now) < Math.abs(best - now)) best = candidate;
  }
  return best;
}

function subUrlOf(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = parsed.pathname.replace(/[^/]*$/, 'sub');
  return parsed.toString();
}

const RTSP_OUT = (url: string) => ['-f', 'rtsp', '-rtsp_transport', 'tcp', url];

/**
 * Starts publishing `scene` to `rtspUrl` (e.g. `rtsp://127.0.0.1:PORT/main`) and resolves once ffmpeg has
 * its sessions recording, so a player may connect right away.
 */
export async function publishScene(
  rtspUrl: string,
  scene: Scene,
  opts: PublishOptions = {},
): Promise<Publication> {
  const fps = opts.fps ?? (scene === 'clock' ? 15 : 10);
  const gop = opts.gop ?? fps;
  const sized =
    opts.width !== undefined || opts.height !== undefined || opts.fps !== undefined || opts.gop !== undefined;
  const main: Size | null =
    scene.startsWith('loop:') && !sized
      ? null
      : { width: opts.width ?? 1280, height: opts.height ?? 720, fps, gop };
  const subOpts = opts.sub === true ? {} : opts.sub || null;
  const sub: (Size & { url: string }) | null = subOpts
    ? {
        width: subOpts.width ?? 640,
        height: subOpts.height ?? 360,
        fps,
        gop,
        url: subOpts.url ?? subUrlOf(rtspUrl),
      }
    : null;

  const args = ['-hide_banner', '-nostats', '-loglevel', 'info'];
  const urls = [rtspUrl, ...(sub ? [sub.url] : [])];
  if (scene === 'clock') {
    const m = main ?? { width: 1280, height: 720, fps, gop };
    const live = ['-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-g', String(gop)];
    const graph = [
      `[0:v]${clockFilter(fps)},split=${sub ? 2 : 1}${sub ? '[m0][s0]' : '[m0]'}`,
      `[m0]scale=${m.width}:${m.height}:flags=neighbor,format=yuv420p[main]`,
      ...(sub ? [`[s0]scale=${sub.width}:${sub.height}:flags=neighbor,format=yuv420p[sub]`] : []),
    ].join(';');
    args.push('-re', '-f', 'lavfi', '-i', `color=c=black:s=${CLOCK_COLUMNS * 2}x${CLOCK_ROWS * 2}:r=${fps}`);
    if (opts.audio) args.push('-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000');
    args.push('-filter_complex', graph, '-map', '[main]', '-c:v', 'libx264', ...live);
    if (opts.audio) args.push('-map', '1:a', '-c:a', 'aac', '-b:a', '32k');
    args.push(...RTSP_OUT(rtspUrl));
    if (sub) args.push('-map', '[sub]', '-c:v', 'libx264', ...live, ...RTSP_OUT(sub.url));
  } else {
    const [mainFile, subFile] = await Promise.all([
      prepareScene(scene, main),
      sub ? prepareScene(scene, { width: sub.width, height: sub.height, fps, gop }) : null,
    ]);
    args.push('-re', '-stream_loop', '-1', '-i', mainFile);
    if (subFile) args.push('-re', '-stream_loop', '-1', '-i', subFile);
    const audioInput = subFile ? 2 : 1;
    if (opts.audio) args.push('-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000');
    args.push('-map', '0:v:0', '-c:v', 'copy');
    if (opts.audio) args.push('-map', `${audioInput}:a`, '-c:a', 'aac', '-b:a', '32k');
    args.push(...RTSP_OUT(rtspUrl));
    if (subFile && sub) args.push('-map', '1:v:0', '-c:v', 'copy', ...RTSP_OUT(sub.url));
  }

  const child = spawn(FFMPEG, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return started(child, urls, opts.log);
}

/** Waits until ffmpeg reports every output open (it prints "Output #n" once RECORD succeeded). */
function started(child: ChildProcess, urls: string[], log?: (line: string) => void): Promise<Publication> {
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    let tail = '';
    let opened = 0;
    let pending = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      pending += text;
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        log?.(line);
        if (/^Output #\d+/.test(line) && ++opened === urls.length) {
          resolve({ urls, stop: () => stop(child, exited), exited });
        }
      }
    });
    child.once('error', reject);
    void exited.then(() => {
      if (opened < urls.length) reject(new Error(`ffmpeg could not publish ${urls.join(', ')}:\n${tail}`));
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * The usual camera: `scene` at `/main` (1280x720) and `/sub` (640x360) of `server` (or of a base URL such
 * as `rtsp://127.0.0.1:PORT`), resolved once both are playable.
 */
export async function mainAndSub(
  server: RtspTestServer | string,
  scene: Scene = 'still',
  opts: Omit<PublishOptions, 'sub'> = {},
): Promise<Publication & { mainUrl: string; subUrl: string }> {
  const base = typeof server === 'string' ? server.replace(/\/+$/, '') : `rtsp://127.0.0.1:${server.port}`;
  const mainUrl = `${base}/main`;
  const subUrl = `${base}/sub`;
  const publication = await publishScene(mainUrl, scene, {
    width: 1280,
    height: 720,
    ...opts,
    sub: { width: 640, height: 360, url: subUrl },
  });
  if (typeof server !== 'string') {
    await Promise.all([server.waitForPublisher('/main'), server.waitForPublisher('/sub')]);
  }
  return { ...publication, mainUrl, subUrl };
}
