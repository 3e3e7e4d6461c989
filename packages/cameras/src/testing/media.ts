/**
 * Where the test media are (real photos and clips, see test-media/SOURCES.md): `FIXTURES_DIR` when set (an
 * override), else `test-media/` at the repository root. The one place the cameras tests, the test peers
 * and, through `@homesitter/cameras/testing`, the other workspaces' tests, benches and evals find them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The test media folder (this file is packages/cameras/src/testing/media.ts). */
export const testMediaDir: string =
  process.env.FIXTURES_DIR || fileURLToPath(new URL('../../../../test-media/', import.meta.url));

/** The full path of a test media file; throws when it is not there (a missing file fails loudly). */
export function testMedia(name: string): string {
  const path = join(testMediaDir, name);
  if (!existsSync(path)) {
    throw new Error(
      `test media ${name} not found in ${testMediaDir}` +
        (process.env.FIXTURES_DIR ? ' (FIXTURES_DIR)' : ' (the repository test-media folder)'),
    );
  }
  return path;
}
