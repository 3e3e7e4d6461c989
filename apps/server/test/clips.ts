import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveMediaTool } from '../src/modules/media/tool-paths.js';

/** The ffmpeg the server runs (FFMPEG_PATH, else the npm package's build): tests make their clips with it. */
export const FFMPEG = resolveMediaTool('ffmpeg', process.env.FFMPEG_PATH).path;
export const FFPROBE = resolveMediaTool('ffprobe', process.env.FFPROBE_PATH).path;

function encoders(): string {
  const r = spawnSync(FFMPEG, ['-hide_banner', '-encoders'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout : '';
}

/** Whether ffmpeg runs at all (every clip test needs it). */
export const hasFfmpeg = (): boolean => encoders().includes('libx264');
/** Whether it can encode H.265 (libx265): the HEVC camera-clip cases need it to make their clip. */
export const hasX265 = (): boolean => encoders().includes('libx265');

export type ClipKind = 'h264' | 'hevc' | 'mjpeg';

export interface ClipOptions {
  seconds?: number;
  width?: number;
  height?: number;
  /** Adds a G.711 A-law track, the audio many cameras record. */
  audio?: boolean;
}

const CONTAINER: Record<ClipKind, string> = { h264: 'mp4', hevc: 'mp4', mjpeg: 'avi' };
const CODEC: Record<ClipKind, string[]> = {
  h264: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25'],
  hevc: [
    ...['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1'],
    ...['-x265-params', 'log-level=error'],
  ],
  mjpeg: ['-c:v', 'mjpeg', '-q:v', '8', '-pix_fmt', 'yuvj420p'],
};

/**
 * A camera-like clip made by ffmpeg from its test pattern (testsrc), written to a temporary
 * folder; answers its path.
 */
export function makeClip(kind: ClipKind, options: ClipOptions = {}): string {
  const { seconds = 3, width = 320, height = 240, audio = false } = options;
  const dir = mkdtempSync(join(tmpdir(), 'hs-clip-'));
  const out = join(dir, `clip-${kind}.${CONTAINER[kind]}`);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${width}x${height}:rate=25`,
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000'] : []),
    '-t',
    String(seconds),
    ...CODEC[kind],
    ...(audio ? ['-c:a', kind === 'mjpeg' ? 'pcm_alaw' : 'aac'] : []),
    out,
  ];
  const r = spawnSync(FFMPEG, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`making a ${kind} clip failed: ${r.stderr}`);
  return out;
}

export const readClip = (path: string): Buffer => readFileSync(path);
