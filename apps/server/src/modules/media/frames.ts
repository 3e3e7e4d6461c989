import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaToolError, UnreadableClipError, startFailure } from './ffmpeg.js';
import { resolveMediaTool } from './tool-paths.js';

/**
 * Still frames of a clip for the vision engine: `count` JPEGs spread evenly over the clip, each from the
 * middle of its slice of time (so neither the empty first frame of a motion clip nor a black last one),
 * through ffmpeg (tool-paths.ts). One decoding pass for all frames.
 */

export interface FrameOptions {
  ffmpegPath?: string;
  /** Longest the extraction may take. */
  timeoutMs?: number;
  /** Frames wider or taller than this are scaled down (the engine works at 1920 px at most). */
  maxEdge?: number;
}

const STDERR_TAIL = 4_000;

function run(
  bin: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(startFailure(bin, err));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL')
        reject(new MediaToolError(`${bin} took longer than ${timeoutMs} ms`, stderr.trim()));
      else resolve({ code, stderr: stderr.trim() });
    });
  });
}

/** The clip's length in seconds from ffmpeg's own report of the input ("Duration: 00:00:10.10"), if it says. */
async function durationOf(ffmpeg: string, file: string, timeoutMs: number): Promise<number | null> {
  // With no output named ffmpeg prints the input's description and exits 1; that is the point here.
  const { stderr } = await run(ffmpeg, ['-hide_banner', '-nostdin', '-i', file], timeoutMs);
  const m = /Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (!m) return null;
  const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  return seconds > 0 ? seconds : null;
}

/**
 * `count` JPEG frames of a clip (a file path, or the clip's bytes), in time order. A clip shorter than
 * `count` frames answers the frames it has; a file ffmpeg cannot read is an UnreadableClipError.
 */
export async function extractFrames(
  video: string | Buffer,
  count: number,
  options: FrameOptions = {},
): Promise<Buffer[]> {
  if (!Number.isInteger(count) || count < 1 || count > 30) throw new RangeError('count must be 1..30');
  const ffmpeg = options.ffmpegPath ?? resolveMediaTool('ffmpeg').path;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxEdge = options.maxEdge ?? 1920;
  const dir = await mkdtemp(join(tmpdir(), 'hs-frames-'));
  try {
    let input: string;
    if (typeof video === 'string') input = video;
    else {
      // A file, not a pipe: MP4s written by cameras often keep their index at the end, which needs seeking.
      input = join(dir, 'clip');
      await writeFile(input, video);
    }
    const duration = await durationOf(ffmpeg, input, timeoutMs);
    // The middle of each of `count` equal slices; without a known length, one frame a second from the start.
    const sampling = duration
      ? [`fps=${count}/${duration.toFixed(3)}`, `-ss`, (duration / count / 2).toFixed(3)]
      : ['fps=1', '-ss', '0'];
    const [fps, ss, offset] = sampling as [string, string, string];
    const scale = `scale='min(${maxEdge},iw)':'min(${maxEdge},ih)':force_original_aspect_ratio=decrease`;
    const { code, stderr } = await run(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        ss,
        offset,
        '-i',
        input,
        '-an',
        '-vf',
        `${fps},${scale},format=yuvj420p`,
        '-frames:v',
        String(count),
        '-q:v',
        '3',
        join(dir, 'frame-%03d.jpg'),
      ],
      timeoutMs,
    );
    const names = (await readdir(dir)).filter((n) => n.startsWith('frame-')).sort();
    if (code !== 0 || names.length === 0) {
      throw new UnreadableClipError(`no frames could be read from the clip${stderr ? `: ${stderr}` : ''}`);
    }
    return await Promise.all(names.map((n) => readFile(join(dir, n))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
