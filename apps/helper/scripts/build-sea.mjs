// `npm run build:helper`: the helper as one file you can hand to someone, a Node single executable
// application (https://nodejs.org/api/single-executable-applications.html):
//   1. esbuild bundles src/main.ts and everything it imports into one CommonJS file, dist/helper.cjs;
//   2. Node turns it into a preparation blob (dist/sea-prep.blob, from dist/sea-config.json);
//   3. a copy of the Node binary gets the blob injected with postject:
//      dist/homesitter-helper-<os>-<arch>[.exe].
// ffmpeg and ffprobe are not inside: put them beside the executable, or set FFMPEG_PATH / FFPROBE_PATH, or
// have them on PATH (docs/helper.md).
//
// HELPER_BUILD_DIR puts everything in another folder (default: dist): the server builds its own download
// there (docs/helper-web.md).
// HELPER_NODE_BINARY picks the Node binary to copy (default: the one running this script). It must be an
// Node build with single-executable support (the SEA fuse): the script checks and says so when it is not. macOS and Windows: see docs/helper.md (signing).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import postject from 'postject';

const started = Date.now();
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = process.env.HELPER_BUILD_DIR ? resolve(process.env.HELPER_BUILD_DIR) : join(root, 'dist');
const bundle = join(dist, 'helper.cjs');
const blob = join(dist, 'sea-prep.blob');
const seaConfig = join(dist, 'sea-config.json');
// Node's own sentinel (node_sea.cc): postject flips its `:0` to `:1` once the blob is in.
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const { platform, arch } = process;
const executable = join(dist, `homesitter-helper-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`);
const nodeBinary = process.env.HELPER_NODE_BINARY || process.execPath;

function fail(message) {
  console.error(`build-sea: ${message}`);
  process.exit(1);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0)
    fail(`${command} ${args.join(' ')} failed (${result.error?.message ?? result.status})`);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// 1. One CommonJS file. A single executable runs CommonJS, and `import.meta.url` does not exist there: it
//    becomes the file URL of the executable, so createRequire-based lookups (the npm ffmpeg builds) fail
//    cleanly and fall back to PATH.
await build({
  entryPoints: [join(root, 'src/main.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  define: { 'import.meta.url': 'import_meta_url' },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "const import_meta_url = require('node:url').pathToFileURL(__filename).href;",
      // ws's optional native speed-ups are not in the bundle: ws is told not to look for them (a single
      // executable warns on every require of something that is not built in).
      "process.env.WS_NO_BUFFER_UTIL ??= '1';",
      "process.env.WS_NO_UTF_8_VALIDATE ??= '1';",
    ].join('\n'),
  },
  external: ['bufferutil', 'utf-8-validate'],
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(bundle, 0o755);
console.log(`build-sea: bundled ${bundle} (${Math.round(statSync(bundle).size / 1024)} KB)`);

const node = readFileSync(nodeBinary);
if (!node.includes(FUSE)) {
  fail(
    `${nodeBinary} cannot become a single executable: it has no SEA fuse (${FUSE}). ` +
      'Some distribution builds of Node lack it. Download the official Node ' +
      `${process.versions.node.split('.')[0]} binary for ${platform}-${arch} and run again with ` +
      'HELPER_NODE_BINARY=/path/to/node. The bundle dist/helper.cjs is ready meanwhile (node dist/helper.cjs).',
  );
}

// 2. The preparation blob, made by the same Node that will run it.
writeFileSync(
  seaConfig,
  `${JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false }, null, 2)}\n`,
);
run(nodeBinary, ['--experimental-sea-config', seaConfig]);

// 3. A copy of Node with the blob inside.
copyFileSync(nodeBinary, executable);
chmodSync(executable, 0o755);
if (platform === 'darwin') run('codesign', ['--remove-signature', executable]);
await postject.inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: FUSE,
  ...(platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
});
// macOS refuses to run an unsigned binary on Apple silicon: an ad-hoc signature; sign properly to distribute.
if (platform === 'darwin') run('codesign', ['--sign', '-', executable]);

console.log(
  `build-sea: ${executable} (${Math.round(statSync(executable).size / 1024 / 1024)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (platform === 'win32')
  console.log('build-sea: sign it with signtool before handing it out (docs/helper.md)');
