import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's root folder, found by walking up from this module: the same answer from `src/`
 * under tsx or vitest and from the bundled `dist/main.js`.
 */
function findServerRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'drizzle')) && existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the server package root (no drizzle/ folder above)');
    dir = parent;
  }
}

const root = findServerRoot();

export function serverPath(...parts: string[]): string {
  return resolve(root, ...parts);
}
