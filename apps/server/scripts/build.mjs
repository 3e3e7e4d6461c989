// Bundles the server into dist/main.js. Only our own code and the workspace contract are bundled; every
// npm dependency stays external and is loaded from node_modules (PGlite's WASM, pino's workers…).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const read = (url) => JSON.parse(readFileSync(new URL(url, import.meta.url), 'utf8'));
const pkg = read('../package.json');
// The workspace packages are bundled; their own npm dependencies (onvif's CommonJS…) stay external too.
const workspaces = ['../../../packages/contract/package.json', '../../../packages/cameras/package.json'].map(
  read,
);
const external = [pkg, ...workspaces]
  .flatMap((p) => Object.keys(p.dependencies ?? {}))
  .filter((name) => !name.startsWith('@homesitter/'));

await build({
  // The vision worker is its own script: local.vision.ts starts dist/vision.worker.js in a worker thread.
  entryPoints: { main: 'src/main.ts', 'vision.worker': 'src/adapters/vision/vision.worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
console.log('server built: apps/server/dist');
