import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers of src/ (docs/architecture.md, "Web app"): app/ composes features/, features/ build on shared/,
// and shared/ stands alone. Features may use each other only as long as no two depend on each other, even
// through others, so each can be read (and changed) from the ones below it.

const root = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The relative modules a file imports: `from '…'`, `import '…'` and `import('…')`. */
function relativeImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const specifiers = code.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.[^']*)'/gm);
  return [...specifiers].map(([, specifier]) => path.resolve(path.dirname(file), specifier!));
}

/** `app`, `shared`, `features/<area>` or `other`, by where a path sits under src/. */
function layerOf(file: string): string {
  const [top, area] = path.relative(root, file).split(path.sep);
  if (top === 'features' && area) return `features/${area}`;
  if (top === 'app' || top === 'shared') return top;
  return 'other';
}

const imports = sourceFiles(root).flatMap((file) =>
  relativeImports(file).map((target) => ({
    from: layerOf(file),
    to: layerOf(target),
    where: path.relative(root, file),
  })),
);

/** Each cycle of feature → feature imports once, as the areas along it. */
function featureCycles(): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!from.startsWith('features/') || !to.startsWith('features/') || from === to) continue;
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
  const cycles = new Set<string>();
  const finished = new Set<string>();
  function visit(area: string, trail: string[]) {
    const seenAt = trail.indexOf(area);
    if (seenAt >= 0) {
      cycles.add([...trail.slice(seenAt), area].join(' → '));
      return;
    }
    if (finished.has(area)) return;
    for (const next of edges.get(area) ?? []) visit(next, [...trail, area]);
    finished.add(area);
  }
  for (const area of edges.keys()) visit(area, []);
  return [...cycles];
}

describe('source layers', () => {
  it('sees the imports it checks', () => {
    expect(imports.some((i) => i.from.startsWith('features/') && i.to === 'shared')).toBe(true);
    expect(imports.some((i) => i.from === 'app' && i.to.startsWith('features/'))).toBe(true);
  });

  it('features never import app/', () => {
    const offending = imports.filter((i) => i.from.startsWith('features/') && i.to === 'app');
    expect(offending.map((i) => i.where)).toEqual([]);
  });

  it('shared/ imports neither app/ nor features/', () => {
    const offending = imports.filter(
      (i) => i.from === 'shared' && (i.to === 'app' || i.to.startsWith('features/')),
    );
    expect(offending.map((i) => i.where)).toEqual([]);
  });

  it('no two features depend on each other, directly or through others', () => {
    expect(featureCycles()).toEqual([]);
  });
});
