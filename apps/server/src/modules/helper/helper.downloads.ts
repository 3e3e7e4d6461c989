import { createReadStream, type ReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HelperDownload } from '@homesitter/contract';
import type { HelperBuilder } from './helper.build.js';

/** `homesitter-helper-<os>-<arch>[.exe]`, as the helper's build names its single-file executables. */
const BUILD_NAME = /^homesitter-helper-([a-z0-9]+)-([a-z0-9_]+)(\.exe)?$/;

export const DOWNLOADS_PATH = '/api/helper/downloads';

interface Build extends HelperDownload {
  file: string;
}

const urlOf = (file: string) => `${DOWNLOADS_PATH}/${file}`;

/**
 * The desktop helper builds this server hands out: the files in `HELPER_DOWNLOADS_DIR` named like a build,
 * read again on each call (a build dropped in later shows up), and, when none of them is for the OS this
 * server runs on, that OS's build made on its first download (`own`). Only those names can be fetched, so no
 * path from a request ever reaches the file system.
 */
export function createHelperDownloads(dir: string, own?: HelperBuilder) {
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
        return { file, os: match[1]!, arch: match[2]!, url: urlOf(file), size: info.size };
      }),
    );
    return found.filter((b): b is Build => b !== undefined);
  }

  return {
    /** Every build there is now, by file name. */
    async list(): Promise<HelperDownload[]> {
      const found = (await builds()).map(({ os, arch, url, size }) => ({ os, arch, url, size }));
      if (!own || found.some((b) => b.url === urlOf(own.name))) return found;
      const [, os, arch] = BUILD_NAME.exec(own.name)!;
      return [
        ...found,
        { os: os!, arch: arch!, url: urlOf(own.name), size: (await own.builtSize()) ?? null },
      ];
    },
    /** Whether a name can be a build at all (anything else is a bad request). */
    isBuildName: (file: string) => BUILD_NAME.test(file),
    /** The build of exactly this name, opened for reading; undefined when there is none. */
    async open(file: string): Promise<{ stream: ReadStream; size: number } | undefined> {
      const build = (await builds()).find((b) => b.file === file);
      if (build) return { stream: createReadStream(join(dir, build.file)), size: build.size! };
      if (file !== own?.name) return undefined;
      const path = await own.ensure();
      return { stream: createReadStream(path), size: (await stat(path)).size };
    },
  };
}
export type HelperDownloads = ReturnType<typeof createHelperDownloads>;
