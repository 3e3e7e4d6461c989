import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as schema from './platform/db/schema.js';
import { serverPath } from './platform/paths.js';

/** The server's own source files (no tests), as paths relative to `src/`. */
function sources(dir = serverPath('src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|test-support\.ts$/.test(entry.name) ? [path] : [];
  });
}
const files = sources().map((path) => ({
  path: relative(serverPath('src'), path).split(sep).join('/'),
  text: readFileSync(path, 'utf8'),
}));

/** Drizzle's table objects by their export name (`activities`, `cameraUploadCredentials`…). */
const tableNames = Object.entries(schema)
  .filter(
    ([, value]) =>
      typeof value === 'object' && value !== null && Symbol.for('drizzle:IsDrizzleTable') in value,
  )
  .map(([name]) => name);

const moduleOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1];

describe('the server architecture (docs/architecture.md)', () => {
  it('has platform and adapters that never import a module', () => {
    const offending = files
      .filter((f) => /^(platform|adapters)\//.test(f.path))
      .filter((f) => /from '(\.\.\/)+modules\//.test(f.text))
      .map((f) => f.path);
    expect(offending).toEqual([]);
  });

  it('gives every table one owner: only the owning module writes it', () => {
    const writers = new Map<string, Set<string>>();
    for (const f of files) {
      const area = moduleOf(f.path);
      if (!area) continue;
      for (const table of tableNames) {
        if (!new RegExp(`\\.(insert|update|delete)\\(${table}\\)`).test(f.text)) continue;
        writers.set(table, (writers.get(table) ?? new Set()).add(area));
      }
    }
    const shared = [...writers]
      .filter(([, areas]) => areas.size > 1)
      .map(([t, a]) => `${t}: ${[...a].join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('lets a module use another only through its front door, or its types', () => {
    // `language` is a library of pure functions (the sentences the home sitter says), open to every module.
    const libraries = new Set(['language']);
    const offending: string[] = [];
    for (const f of files) {
      const area = moduleOf(f.path);
      if (!area) continue;
      for (const [statement, names, other, file] of f.text.matchAll(
        /^import (?!type )([^;]*?) from '\.\.\/([a-z-]+)\/([^']+)';/gm,
      )) {
        if (other === area || libraries.has(other!) || file === `${other}.module.js`) continue;
        // `import { type A, type B }` brings in types only, like `import type`.
        const onlyTypes =
          /^\{[^}]*\}$/.test(names!.trim()) &&
          names!
            .replace(/[{}\s]/g, '')
            .split(',')
            .filter(Boolean)
            .every((n) => n.startsWith('type'));
        if (!onlyTypes) offending.push(`${f.path}: ${statement.replace(/\s+/g, ' ')}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
