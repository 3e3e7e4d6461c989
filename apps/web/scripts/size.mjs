// Initial JS+CSS of /auth, gzip: the entry and its static imports, plus the /auth route chunk (loaded at once
// by the router) and its static imports, plus the locale chunk of the default language. Fails above budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 150;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const files = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const dep of chunk.imports ?? []) collect(dep);
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
collect(entry);
const routeChunks = ['src/features/auth/AuthPage.tsx', 'public/locales/en/translation.json'];
for (const key of Object.keys(manifest)) {
  if (routeChunks.some((r) => key.endsWith(r))) collect(key);
}

let total = 0;
const rows = [...files].map((file) => {
  const gz = gzipSync(readFileSync(path.join(dist, file))).length;
  total += gz;
  return [file, gz];
});
rows.sort((a, b) => b[1] - a[1]);
for (const [file, gz] of rows) console.log(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${file}`);
const kb = total / 1024;
console.log(
  `\nInitial JS+CSS of /auth: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB), ${files.size} files`,
);
if (kb > BUDGET_KB) {
  console.error('Over budget');
  process.exit(1);
}
