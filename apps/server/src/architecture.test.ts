import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as schema from './platform/db/schema.js';
import { JOB_SCHEMAS } from './platform/job-map.js';
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
const modules = [...new Set(files.map((f) => moduleOf(f.path)).filter((m): m is string => !!m))].sort();

/** Module → the modules its source files import, values or types (`import`, `export … from`, `import()`). */
function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const f of files) {
    const area = moduleOf(f.path);
    if (!area) continue;
    const uses = graph.get(area) ?? new Set<string>();
    graph.set(area, uses);
    for (const [, other] of f.text.matchAll(/(?:from |import\()'\.\.\/([a-z-]+)\//g))
      if (other !== area) uses.add(other!);
  }
  return graph;
}

/** The groups of modules that reach each other through their imports (each a cycle or several), sorted. */
function importCycles(graph: Map<string, Set<string>>): string[] {
  const reach = (from: string) => {
    const seen = new Set<string>();
    const walk = (node: string) => {
      for (const next of graph.get(node) ?? [])
        if (!seen.has(next)) {
          seen.add(next);
          walk(next);
        }
    };
    walk(from);
    return seen;
  };
  const reached = new Map([...graph.keys()].map((m) => [m, reach(m)]));
  const groups = new Set<string>();
  for (const [m, seen] of reached) {
    if (!seen.has(m)) continue;
    const group = [...seen].filter((other) => reached.get(other)?.has(m)).sort();
    groups.add(group.join(' ⇄ '));
  }
  return [...groups].sort();
}

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
    const offending: string[] = [];
    for (const f of files) {
      const area = moduleOf(f.path);
      if (!area) continue;
      for (const [statement, names, other, file] of f.text.matchAll(
        /^import (?!type )([^;]*?) from '\.\.\/([a-z-]+)\/([^']+)';/gm,
      )) {
        if (other === area || file === `${other}.module.js`) continue;
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

  it('gives every module a front door, <area>.module.ts', () => {
    const without = modules.filter((m) => !files.some((f) => f.path === `modules/${m}/${m}.module.ts`));
    expect(without).toEqual([]);
  });

  it('has no import cycle among modules, type imports included', () => {
    const graph = moduleImports();
    expect(importCycles(graph)).toEqual([]);
    // The check sees the imports it is about (a regression of its pattern would pass it vacuously).
    expect(graph.get('analysis')).toContain('activities');
  });

  it('names every job after the module that works it, whose <area>.jobs.ts registers its worker', () => {
    const workedIn = new Map<string, string[]>();
    for (const f of files)
      for (const [, name] of f.text.matchAll(/\.(?:work|leaveQueued)\(\s*'([a-z-]+\.[a-z-]+)'/g))
        workedIn.set(name!, [...(workedIn.get(name!) ?? []), f.path]);
    const misplaced = Object.keys(JOB_SCHEMAS).flatMap((job) => {
      const area = job.slice(0, job.indexOf('.'));
      const where = workedIn.get(job) ?? [];
      const expected = `modules/${area}/${area}.jobs.ts`;
      return where.length > 0 && where.every((path) => path === expected)
        ? []
        : [`${job}: worked in ${where.join(', ') || 'no file'}, expected ${expected}`];
    });
    expect(misplaced).toEqual([]);
    // No worker of a job outside the map, and none registered anywhere but a jobs file.
    const stray = [...workedIn].filter(([job]) => !(job in JOB_SCHEMAS)).map(([job]) => job);
    expect(stray).toEqual([]);
  });

  it('keeps each table in the schema file of its owner', () => {
    const misfiled: string[] = [];
    for (const f of files.filter((f) => /^platform\/db\/schema\/[a-z-]+\.ts$/.test(f.path))) {
      const owner = /([a-z-]+)\.ts$/.exec(f.path)![1]!;
      for (const [, table] of f.text.matchAll(/^export const (\w+) = pgTable\(/gm))
        for (const g of files.filter((g) => moduleOf(g.path) && moduleOf(g.path) !== owner))
          if (new RegExp(`\\.(insert|update|delete)\\(${table}\\)`).test(g.text))
            misfiled.push(`${table} (${f.path}) written by ${g.path}`);
    }
    expect(misfiled).toEqual([]);
    // schema.ts only gathers the owners' files (it used to define tables the others imported back).
    const gatherer = files.find((f) => f.path === 'platform/db/schema.ts')!.text;
    expect(
      gatherer
        .replace(/\/\*\*[\s\S]*?\*\/\n/, '')
        .trim()
        .split('\n'),
    ).toSatisfy((lines: string[]) =>
      lines.every((l) => /^export \* from '\.\/schema\/[a-z-]+\.js';$/.test(l)),
    );
  });

  it("leaves the upload's status to the ingest: only its statements read or move it", () => {
    const elsewhere = files
      .filter((f) => moduleOf(f.path) && moduleOf(f.path) !== 'ingest')
      .filter((f) => /\buploads\.status\b|\.(insert|update|delete)\(uploads\)/.test(f.text))
      .map((f) => f.path);
    expect(elsewhere).toEqual([]);
  });

  it('keeps the composition root app.ts at most 150 lines', () => {
    const lines = files.find((f) => f.path === 'app.ts')!.text.split('\n').length;
    expect(lines).toBeLessThanOrEqual(150);
  });
});

/** Every source file of the repository (all workspaces, tests included), relative to its root. */
function repositorySources(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'android', 'ios', 'test-media'].includes(entry.name)) return [];
    if (entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return repositorySources(root, path);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [relative(root, path).split(sep).join('/')] : [];
  });
}

describe("the repository's comments", () => {
  const root = serverPath('..', '..');
  const texts = ['apps', 'packages', 'scripts'].flatMap((top) =>
    repositorySources(root, join(root, top)).map((path) => ({
      path,
      text: readFileSync(join(root, path), 'utf8'),
    })),
  );

  it('cite the product rules in docs/product.md, never a spec the repository lacks', () => {
    const citing = texts.filter((f) => /\bspec §/i.test(f.text)).map((f) => f.path);
    expect(citing).toEqual([]);
  });

  it('name only documents the repository has', () => {
    const missing = texts.flatMap((f) =>
      [...f.text.matchAll(/\bdocs\/([\w.-]+\.md)\b/g)]
        .filter((m) => !existsSync(join(root, 'docs', m[1]!)))
        .map((m) => `${f.path}: docs/${m[1]}`),
    );
    expect(missing).toEqual([]);
  });
});
