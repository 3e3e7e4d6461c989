import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertValidKey, contentTypeOfKey, roundedExpiry, type ObjectStorage } from './storage.js';

export interface FsStorageOptions {
  /** Folder holding the objects (`DATA_DIR/media`). */
  root: string;
  /** Builds the signed URL the server's media route accepts (`/media/<key>?exp=&sig=`). */
  signUrl: (key: string, expiresAtSeconds: number) => string;
  now?: () => number;
}

/** Objects as files under `root`; written to a temporary name, then renamed, so a reader never sees half. */
export function createFsStorage(options: FsStorageOptions): ObjectStorage {
  const { root } = options;
  const now = options.now ?? Date.now;
  const pathOf = (key: string) => {
    assertValidKey(key);
    return join(root, key);
  };

  return {
    kind: 'fs',
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, body, { mode: 0o600 });
      await rename(tmp, path);
    },
    async putFile(key, filePath) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await copyFile(filePath, tmp);
      await rename(tmp, path);
    },
    async *list(prefix) {
      const clean = prefix.replace(/\/+$/, '');
      const start = clean ? pathOf(clean) : root;
      const entries = await readdir(start, { recursive: true, withFileTypes: true }).catch(
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
          throw err;
        },
      );
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        const info = await stat(path).catch(() => undefined);
        if (info) yield { key: relative(root, path).split(sep).join('/'), modifiedAt: info.mtime };
      }
    },
    async get(key) {
      const path = pathOf(key);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { body: createReadStream(path), contentType: contentTypeOfKey(key), size: info.size };
    },
    async exists(key) {
      const info = await stat(pathOf(key)).catch(() => undefined);
      return info?.isFile() ?? false;
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      const clean = prefix.replace(/\/+$/, '');
      await rm(pathOf(clean), { recursive: true, force: true });
    },
    async signedUrl(key, ttlSeconds) {
      assertValidKey(key);
      return options.signUrl(key, roundedExpiry(ttlSeconds, now()));
    },
  };
}
