import { createReadStream, type ReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HelperDownload } from '@homesitter/contract';

/** `homesitter-helper-<os>-<arch>[.exe]`, as the helper's build names its single-file executables. */
const BUILD_NAME = /^homesitter-helper-([a-z0-9]+)-([a-z0-9_]+)(\.exe)?$/;

export const DOWNLOADS_PATH = '/api/helper/downloads';

interface Build extends HelperDownload {
  file: string;
}

/**
 * The desktop helper builds this server hands out: the files in `HELPER_DOWNLOADS_DIR` named like a build,
 * read again on each call (a build dropped in later shows up). Only those names can be fetched, so no path
 * from a request ever reaches the file system.
 */
export function createHelperDownloads(dir: string) {
  async function builds(): Promise<Build[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const found = await Promise.all(
      names.sort().map(async (file): Promise<Build | undefined> => {
        const match = BUILD_NAME.exec(file);
        if (!match) return undefined;
        const info = await stat(join(dir, file)).catch(() => undefined);
        if (!info?.isFile()) return undefined;
        return { file, os: match[1]!, arch: match[2]!, url: `${DOWNLOADS_PATH}/${file}`, size: info.size };
      }),
    );
    return found.filter((b): b is Build => b !== undefined);
  }

  return {
    /** Every build there is now, by file name. */
    async list(): Promise<HelperDownload[]> {
      return (await builds()).map(({ os, arch, url, size }) => ({ os, arch, url, size }));
    },
    /** Whether a name can be a build at all (anything else is a bad request). */
    isBuildName: (file: string) => BUILD_NAME.test(file),
    /** The build of exactly this name, opened for reading; undefined when there is none. */
    async open(file: string): Promise<{ stream: ReadStream; size: number } | undefined> {
      const build = (await builds()).find((b) => b.file === file);
      if (!build) return undefined;
      return { stream: createReadStream(join(dir, build.file)), size: build.size };
    },
  };
}
export type HelperDownloads = ReturnType<typeof createHelperDownloads>;
