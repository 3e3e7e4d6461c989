import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.js';
import { apiRoutes, type ApiRoute } from './routes.runtime.js';

describe('route table', () => {
  const routes: [string, ApiRoute][] = Object.entries(apiRoutes);

  it('names each method and path once', () => {
    const keys = routes.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps every path under /api', () => {
    for (const [name, r] of routes) expect(r.path.startsWith('/api/'), name).toBe(true);
  });

  it('matches the endpoint map entry for entry', () => {
    expect(Object.keys(endpoints).sort()).toEqual(Object.keys(apiRoutes).sort());
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const route = { method: endpoint.method, path: endpoint.path, access: endpoint.access };
      expect(route, name).toEqual(apiRoutes[name as keyof typeof apiRoutes]);
    }
  });
});

/** The relative modules a file loads at run time (`import type` and `export type` load nothing). */
function runtimeImports(source: string): string[] {
  const statements = source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+'([^']+)'/gms);
  return [...statements].map((m) => m[1]!);
}

describe('runtime entry', () => {
  it('loads no zod, so a browser bundle that imports it stays without', () => {
    const seen = new Set<string>();
    const pending = ['./runtime.js'];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const imports = runtimeImports(
        readFileSync(new URL(file.replace(/\.js$/, '.ts'), import.meta.url), 'utf8'),
      );
      expect(imports, file).not.toContain('zod');
      pending.push(...imports.filter((i) => i.startsWith('./')));
    }
    expect(seen).toContain('./routes.runtime.js');
  });
});
