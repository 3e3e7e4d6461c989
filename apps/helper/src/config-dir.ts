import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Logger } from './logger.js';

/**
 * The helper's folder (`HELPER_CONFIG_DIR`): the one adapter that reads and writes its small files. Files
 * that hold a secret (the session's refresh token, the cameras' logins) are written 0600 to a temp file and
 * renamed into place, so a crash leaves the old file or the new one, never half of one.
 */
export interface ConfigDir {
  path: string;
  /** A path inside the folder. */
  resolve(...parts: string[]): string;
  /** The file parsed with `schema`; null when it does not exist. A file that does not parse is set aside. */
  readJson<S extends z.ZodType>(name: string, schema: S): Promise<z.output<S> | null>;
  /** Replaces the file atomically with mode 0600. */
  writePrivate(name: string, data: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** This installation's id, made once (the server tells its helpers apart by it). */
  helperId(): Promise<string>;
}

export async function openConfigDir(path: string, log: Logger): Promise<ConfigDir> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const resolve = (...parts: string[]) => join(path, ...parts);

  async function writePrivate(name: string, data: string): Promise<void> {
    const target = resolve(name);
    const temp = `${target}.${randomUUID()}.tmp`;
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async function readJson<S extends z.ZodType>(name: string, schema: S): Promise<z.output<S> | null> {
    let text: string;
    try {
      text = await readFile(resolve(name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    // Kept for a person to look at rather than overwritten: it may hold a camera's only stored login.
    const aside = `${name}.unreadable-${Date.now()}`;
    await rename(resolve(name), resolve(aside));
    log.error({ file: resolve(name), keptAs: aside }, 'a helper file could not be read and was set aside');
    return null;
  }

  let helperIdPromise: Promise<string> | undefined;
  async function readHelperId(): Promise<string> {
    const file = resolve('helper-id');
    try {
      const id = (await readFile(file, 'utf8')).trim();
      if (/^[0-9a-f-]{36}$/i.test(id)) return id;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const id = randomUUID();
    await writePrivate('helper-id', `${id}\n`);
    return id;
  }

  return {
    path,
    resolve,
    readJson,
    writePrivate,
    remove: (name) => rm(resolve(name), { force: true }),
    helperId: () => (helperIdPromise ??= readHelperId()),
  };
}
