import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { isSea } from 'node:sea';

/** The ffmpeg and ffprobe the helper runs (they cannot live inside the single executable). */
export interface MediaTools {
  ffmpegPath: string;
  ffprobePath: string;
}

/**
 * Where ffmpeg and ffprobe are, in this order: `FFMPEG_PATH` / `FFPROBE_PATH`; binaries beside the
 * executable (the single-file build); the static builds @homesitter/cameras installs with `npm ci` (a
 * checkout, `npm run helper`); else the bare names, looked up on PATH.
 */
export function findMediaTools(configured: {
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
}): MediaTools {
  return {
    ffmpegPath: configured.ffmpegPath ?? find('ffmpeg', '@ffmpeg-installer/ffmpeg'),
    ffprobePath: configured.ffprobePath ?? find('ffprobe', '@ffprobe-installer/ffprobe'),
  };
}

function find(name: 'ffmpeg' | 'ffprobe', npmPackage: string): string {
  return besideExecutable(name) ?? packaged(npmPackage) ?? name;
}

function besideExecutable(name: string): string | null {
  if (!isSea()) return null;
  const file = join(dirname(process.execPath), process.platform === 'win32' ? `${name}.exe` : name);
  return existsSync(file) ? file : null;
}

/** The build that @homesitter/cameras depends on, resolved from that package (as its own defaults are). */
function packaged(npmPackage: string): string | null {
  try {
    const fromHere = createRequire(import.meta.url);
    const fromCameras = createRequire(fromHere.resolve('@homesitter/cameras'));
    const installed: unknown = fromCameras(npmPackage);
    if (typeof installed !== 'object' || installed === null || !('path' in installed)) return null;
    return typeof installed.path === 'string' && existsSync(installed.path) ? installed.path : null;
  } catch {
    // Not a checkout (the single executable), or no build for this platform.
    return null;
  }
}

/** The tools that cannot be found (said at start: without them no camera can be tested or recorded). */
export function missingMediaTools(tools: MediaTools): string[] {
  return [tools.ffmpegPath, tools.ffprobePath].filter((tool) => !canFind(tool));
}

function canFind(tool: string): boolean {
  if (isAbsolute(tool) || tool.includes('/') || tool.includes('\\')) return existsSync(tool);
  const names = process.platform === 'win32' ? [tool, `${tool}.exe`] : [tool];
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => names.some((name) => existsSync(join(dir, name))));
}
