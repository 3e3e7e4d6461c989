import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

/** The repository root (this file is apps/server/test/fixtures.ts). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Where the shared test media (real photos and clips, see their SOURCES.md) are: `FIXTURES_DIR`, else the
 * `shared/fixtures` folder beside the repository. Nothing from there is copied into the project.
 */
export function fixtureDirs(): string[] {
  return [process.env.FIXTURES_DIR, join(REPO_ROOT, '..', 'shared', 'fixtures')].filter((d): d is string =>
    Boolean(d),
  );
}

const warned = new Set<string>();

/**
 * The full path of a fixture, or `undefined` (with one warning naming where it was looked for) when it is
 * not there, so a test can `it.skipIf(!fixturePath('clip-person.mp4'))`.
 */
export function fixturePath(name: string): string | undefined {
  for (const dir of fixtureDirs()) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  if (!warned.has(name)) {
    warned.add(name);
    console.warn(`fixture ${name} not found in ${fixtureDirs().join(' or ')}: its tests are skipped`);
  }
  return undefined;
}

/** A describe block that runs only when every named fixture is there; otherwise skipped, with the warning. */
export function describeWithFixtures(names: string[], title: string, body: () => void): void {
  const missing = names.filter((name) => !fixturePath(name));
  describe.skipIf(missing.length > 0)(title, body);
}

/** The full path of a fixture a `describeWithFixtures` block named (there, since the block runs). */
export function requireFixture(name: string): string {
  const path = fixturePath(name);
  if (!path) throw new Error(`fixture ${name} is missing`);
  return path;
}
