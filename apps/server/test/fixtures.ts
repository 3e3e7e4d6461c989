/**
 * The server's test media (real photos and clips, see test-media/SOURCES.md): found by the cameras package's
 * test peers, `FIXTURES_DIR` when set, else `test-media/` at the repository root. Tests, benches and evals
 * read them through here.
 */
import { testMedia, testMediaDir } from '@homesitter/cameras/testing';

export { testMediaDir };

/** The full path of a test media file; throws when it is not there (a missing file fails loudly). */
export function fixturePath(name: string): string {
  return testMedia(name);
}
