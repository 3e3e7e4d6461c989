import { createRequire } from 'node:module';

/**
 * Where ffmpeg and ffprobe are: `FFMPEG_PATH` / `FFPROBE_PATH` when set; else the static builds that `npm ci`
 * installs from @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe (the binaries are inside the
 * packages' tarballs, so nothing is downloaded); else the bare names, looked up on PATH, on a platform those
 * packages do not cover. docs/activities.md says why these packages and versions.
 */

export type MediaToolName = 'ffmpeg' | 'ffprobe';

export interface MediaToolPath {
  path: string;
  /** Where the path came from: the environment, the npm package, or a bare name looked up on PATH. */
  source: 'env' | 'npm' | 'path';
}

const PACKAGES: Record<MediaToolName, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

const require = createRequire(import.meta.url);

/** The packaged binary's path, or undefined where the package has no build for this platform. */
function packagedPath(name: MediaToolName): string | undefined {
  try {
    // Both packages throw (a string, for one of them) on a platform they have no binary for.
    return (require(PACKAGES[name]) as { path: string }).path;
  } catch {
    return undefined;
  }
}

export function resolveMediaTool(name: MediaToolName, override?: string): MediaToolPath {
  if (override) return { path: override, source: 'env' };
  const packaged = packagedPath(name);
  return packaged ? { path: packaged, source: 'npm' } : { path: name, source: 'path' };
}
