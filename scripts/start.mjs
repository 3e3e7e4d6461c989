// `npm start`: builds what is missing or older than its sources (web app, server), then runs the server,
// which serves the built web app on http://localhost:8080 with embedded defaults.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function buildIfStale(name, output, sources) {
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const source = Math.max(...sources.map((s) => newestMtime(join(root, s))));
  if (built >= source) return;
  console.log(`Building ${name}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', `apps/${name}`], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const contract = 'packages/contract/src';
buildIfStale('web', join(root, 'apps/web/dist/index.html'), [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  contract,
]);
buildIfStale('server', join(root, 'apps/server/dist/main.js'), [
  'apps/server/src',
  'apps/server/drizzle',
  contract,
]);
// The browser suite builds once this way before it starts a server per worker, which would otherwise each
// build the same stale output at once.
if (process.argv.includes('--build-only')) process.exit(0);

// The server runs as a child process so glibc's malloc can be set up before it starts (it reads these once):
// - two malloc arenas instead of one per thread: concurrent image uploads peak ~30% lower in memory;
// - blocks of 32 KB and more straight from the system (mmap) and back to it when freed, not kept in the
//   arenas: V8's compiler memory (32 KB zone segments) and image buffers stop piling up as free memory glibc
//   never returns (about 40 MB less at start, the same speed).
// And V8's young generation capped at 4 MB semi-spaces (16 MB by default): under load the default lets it
// grow to ~48 MB of short-lived request garbage; capped, the server peaks ~15–20 MB lower at the same
// requests/s. apps/server/bench/harness.ts does the same.
const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(root, 'apps/server/dist/main.js')], {
  stdio: 'inherit',
  env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
