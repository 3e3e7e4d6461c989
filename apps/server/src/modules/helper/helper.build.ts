import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../platform/logger.js';
import { helperErrors } from './helper.errors.js';

export interface HelperBuilderOptions {
  /** Where built helpers are kept, one folder per helper version (`DATA_DIR/helper-builds`). */
  cacheDir: string;
  /** The helper package (apps/helper): its package.json gives the version, its build script makes the file. */
  helperDir: string;
  log: Logger;
}

/** The single executable the helper's build makes on this machine: only this OS and architecture. */
export const OWN_BUILD_NAME = `homesitter-helper-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`;

/** Keeps the last lines a failed build printed: the reason it gives (build-sea.mjs says what to do). */
function lastLines(text: string): string {
  return text.trim().split('\n').slice(-2).join(' ').slice(0, 400);
}

/**
 * The helper for the OS this server runs on, built on first request with the helper's own build
 * (`npm run build:helper`, a Node single executable) and kept in `DATA_DIR` until the helper's version
 * changes. Requests that arrive while it builds wait for the same build.
 */
export function createHelperBuilder(options: HelperBuilderOptions) {
  const { cacheDir, helperDir, log } = options;
  const script = join(helperDir, 'scripts', 'build-sea.mjs');
  let building: Promise<string> | undefined;

  function version(): string | undefined {
    try {
      return (JSON.parse(readFileSync(join(helperDir, 'package.json'), 'utf8')) as { version: string })
        .version;
    } catch {
      return undefined;
    }
  }

  const fileOf = (v: string) => join(cacheDir, v, OWN_BUILD_NAME);

  async function build(v: string): Promise<string> {
    const started = Date.now();
    const work = join(cacheDir, `.building-${v}-${process.pid}`);
    await rm(work, { recursive: true, force: true });
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [script], {
        env: { ...process.env, HELPER_BUILD_DIR: work },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let printed = '';
      child.stdout.on('data', (chunk: Buffer) => void (printed += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => void (printed += chunk.toString()));
      child.on('error', (err) => reject(err));
      child.on('exit', (code) => (code === 0 ? resolve(printed) : reject(new Error(lastLines(printed)))));
    });
    // Moved into place only when complete, so a file in the cache is always a whole build.
    await mkdir(join(cacheDir, v), { recursive: true });
    await rename(join(work, OWN_BUILD_NAME), fileOf(v));
    await rm(work, { recursive: true, force: true });
    // Builds of older versions are never handed out again.
    for (const old of await readdir(cacheDir)) {
      if (old !== v) await rm(join(cacheDir, old), { recursive: true, force: true });
    }
    log.info({ version: v, ms: Date.now() - started, output: lastLines(output) }, 'helper download built');
    return fileOf(v);
  }

  return {
    name: OWN_BUILD_NAME,
    /** The build's size when it is there already; undefined until the first download made it. */
    async builtSize(): Promise<number | undefined> {
      const v = version();
      if (!v) return undefined;
      return (await stat(fileOf(v)).catch(() => undefined))?.size;
    },
    /** The path of this OS's build, built first when the cache has none for this version. */
    async ensure(): Promise<string> {
      const v = version();
      if (!v || !existsSync(script))
        throw helperErrors.buildUnavailable('the helper sources are not installed');
      if (existsSync(fileOf(v))) return fileOf(v);
      building ??= build(v).finally(() => (building = undefined));
      try {
        return await building;
      } catch (err) {
        log.warn({ err }, 'helper download could not be built');
        throw helperErrors.buildUnavailable(err instanceof Error ? err.message : String(err));
      }
    },
  };
}
export type HelperBuilder = ReturnType<typeof createHelperBuilder>;
