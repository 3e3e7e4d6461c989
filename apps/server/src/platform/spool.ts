import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes the files of `dir` last written before `cutoffMs` (epoch ms): leftovers of uploads a crash cut
 * off, in the folders requests are received into. Newer files are left alone, since another server
 * instance sharing DATA_DIR may be writing them now. A missing folder has none. Answers how many went.
 */
export async function removeFilesOlderThan(dir: string, cutoffMs: number): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && info.mtimeMs < cutoffMs) {
      await rm(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}
