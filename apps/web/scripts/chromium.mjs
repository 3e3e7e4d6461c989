// The Chromium that the browser suite, `npm run size` and benches launch: `CHROMIUM_PATH` when set, used as
// is; else the build inside the @sparticuz/chromium npm package, so `npm ci && npm test` needs no system
// browser and downloads nothing. Besides glibc that build needs NSS, NSPR and expat, and fonts (without any,
// text lays out at zero width). The package ships those libraries (built for Amazon Linux 2023) and fonts
// too, and the launch points the browser at both, so it runs and renders the same on any x64 glibc Linux
// whatever the machine has installed.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflate } from '@sparticuz/chromium';

// Not the package's own `chromium.args`: those are for AWS Lambda (--single-process and the like).
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const packageDir = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')),
  '..',
);
const packageVersion = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;

/** Playwright's launch options for the browser above; the first call on a machine unpacks it (seconds). */
export async function chromiumLaunchOptions() {
  const override = process.env.CHROMIUM_PATH;
  if (override) return { executablePath: override, headless: true, args: FLAGS };
  const dir = await unpackedChromium();
  const libs = path.join(dir, 'al2023', 'lib');
  const inherited = process.env.LD_LIBRARY_PATH;
  return {
    executablePath: path.join(dir, 'chromium'),
    headless: true,
    args: FLAGS,
    env: {
      ...process.env,
      LD_LIBRARY_PATH: inherited ? `${libs}:${inherited}` : libs,
      FONTCONFIG_FILE: path.join(dir, 'fonts.conf'),
    },
  };
}

/** One line for logs: which Chromium runs and where it came from. */
export function describeChromium(browser) {
  const source = process.env.CHROMIUM_PATH
    ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH}`
    : `@sparticuz/chromium ${packageVersion}`;
  return `Chromium ${browser.version()} (${source})`;
}

/**
 * The package's files unpacked into one directory per package version, so an upgrade never runs an older
 * binary left behind. inflate() skips any output that already exists, even one half written by a concurrent
 * process or by a run that was killed, so it unpacks into a fresh directory and a rename (atomic) puts the
 * whole set in place: a concurrent caller sees all of it or nothing, and the loser of a race drops its copy.
 */
async function unpackedChromium() {
  const dir = path.join(tmpdir(), `homesitter-chromium-${packageVersion}`);
  const executable = path.join(dir, 'chromium');
  if (existsSync(executable)) return dir;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `@sparticuz/chromium only has a Linux x64 build: set CHROMIUM_PATH to a Chromium for ${process.platform}-${process.arch}`,
    );
  const staging = await mkdtemp(`${dir}.partial-`);
  try {
    const outputs = await Promise.all(
      inflateInto(staging, ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br']),
    );
    if (outputs.some((output) => !output.startsWith(staging)))
      throw new Error(`@sparticuz/chromium's inflate() wrote outside ${staging}: ${outputs.join(', ')}`);
    // The package's own fonts.conf names /tmp/fonts; this one names where the fonts are.
    await writeFile(
      path.join(staging, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        `  <dir>${path.join(dir, 'fonts')}</dir>`,
        `  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // A concurrent caller finished first (the rename found its directory): use its copy.
    if (!existsSync(executable)) throw error;
  }
  return dir;
}

/**
 * inflate() writes to os.tmpdir(), which reads TMPDIR when called, and picks each output path synchronously:
 * TMPDIR points at `target` only while the calls start, so nothing else in the process ever sees it.
 */
function inflateInto(target, files) {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = target;
  try {
    return files.map((file) => inflate(path.join(packageDir, 'bin', file)));
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}
