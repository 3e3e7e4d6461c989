import { createRequire } from 'node:module';

/**
 * The static ffmpeg/ffprobe builds that `npm ci` installs with @ffmpeg-installer/ffmpeg and
 * @ffprobe-installer/ffprobe. Every function in this package takes `ffmpegPath` itself so the server can pass
 * `FFMPEG_PATH`; these are only the defaults (tests, the desktop helper).
 */

const require = createRequire(import.meta.url);

function packaged(name: string): string {
  try {
    return (require(name) as { path: string }).path;
  } catch {
    // Both packages throw on a platform they have no binary for; the bare name is then looked up on PATH.
    return name.includes('ffprobe') ? 'ffprobe' : 'ffmpeg';
  }
}

export function defaultFfmpegPath(): string {
  return packaged('@ffmpeg-installer/ffmpeg');
}

export function defaultFfprobePath(): string {
  return packaged('@ffprobe-installer/ffprobe');
}
