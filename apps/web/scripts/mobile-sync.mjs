#!/usr/bin/env node
// `npm run mobile:sync` (docs/mobile.md): builds the web app for the phone apps, with the server's address
// baked in, into dist-native (capacitor.config.ts `webDir`), then runs `cap sync` (scripts/cap.mjs).
//
//   HOMESITTER_SERVER_URL=https://homesitter.example.com npm run mobile:sync
//   npm run mobile:sync -w apps/web -- --dev      # no server: the app calls the origin it is loaded from
//
// The bundled app runs on capacitor://localhost (iOS) / https://localhost (Android), so without a server
// address it would have no API at all: the sync refuses, unless `--dev` says that is meant (trying the
// shell, live reload with HOMESITTER_LIVE_RELOAD_URL pointing at a dev server that proxies the API).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = 'dist-native';
const args = process.argv.slice(2);
const dev = args.includes('--dev');
const capArgs = args.filter((a) => a !== '--dev');

function fail(message) {
  console.error(`mobile:sync: ${message}`);
  process.exit(1);
}

/** The origin of HOMESITTER_SERVER_URL, or an explanation of what is wrong with it. */
function serverOriginOf(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return { error: `HOMESITTER_SERVER_URL is not a web address: ${value}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return {
      error: `HOMESITTER_SERVER_URL must start with https:// (or http:// for a test server): ${value}`,
    };
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    return {
      error: `HOMESITTER_SERVER_URL must be the server's origin only (scheme, host, port), e.g. ${url.origin}: ${value}`,
    };
  return { origin: url.origin };
}

const given = process.env.HOMESITTER_SERVER_URL?.trim() ?? '';
let origin = '';
if (given) {
  const parsed = serverOriginOf(given);
  if (parsed.error) fail(parsed.error);
  origin = parsed.origin;
  if (origin.startsWith('http:'))
    console.warn(
      `mobile:sync: ${origin} is plain http: Android will allow cleartext traffic; use https for real use (docs/mobile.md)`,
    );
} else if (!dev) {
  fail(
    [
      'HOMESITTER_SERVER_URL is not set, so the app would not know which Homesitter server to call.',
      '  Set it to your server, e.g.: HOMESITTER_SERVER_URL=https://homesitter.example.com npm run mobile:sync',
      '  For a build without a server (trying the shell, live reload), say so: npm run mobile:sync -w apps/web -- --dev',
    ].join('\n'),
  );
}

const env = { ...process.env, VITE_SERVER_URL: origin, HOMESITTER_SERVER_URL: origin };
console.log(`mobile:sync: building the web app for ${origin || 'its own origin (--dev)'} into ${OUT_DIR}`);

const require = createRequire(import.meta.url);
const vitePackage = require.resolve('vite/package.json', { paths: [app] });
const viteBin = path.join(path.dirname(vitePackage), require(vitePackage).bin.vite);
const run = (script, scriptArgs) => {
  const result = spawnSync(process.execPath, [script, ...scriptArgs], { cwd: app, env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(viteBin, ['build', '--outDir', OUT_DIR, '--emptyOutDir']);
run(path.join(app, 'scripts', 'cap.mjs'), ['sync', ...capArgs]);
