import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../platform/config.js';
import { createFsStorage } from './fs.storage.js';
import { createS3Storage } from './s3.storage.js';
import type { ObjectStorage } from './storage.js';

/** The HMAC key of media URLs: `MEDIA_SECRET`, else `DATA_DIR/media.key`, created on first start (0600). */
export function loadMediaSecret(secret: string | undefined, dataDir: string): string {
  if (secret) return secret;
  const file = join(dataDir, 'media.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/** S3 when `S3_BUCKET` is set, else files under `DATA_DIR/media` served by the media route. */
export function createStorageFromConfig(
  config: Config,
  signFsUrl: (key: string, expiresAtSeconds: number) => string,
): ObjectStorage {
  if (config.S3_BUCKET) {
    return createS3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: config.S3_PREFIX,
    });
  }
  return createFsStorage({ root: join(config.DATA_DIR, 'media'), signUrl: signFsUrl });
}

/**
 * Origins the browser loads media from besides our own: the bucket's, when media are presigned S3 URLs. The
 * web app's content security policy lets images, video and HLS segments come from there.
 */
export function mediaOriginsFromConfig(config: Config): string[] {
  if (!config.S3_BUCKET) return [];
  if (!config.S3_ENDPOINT) {
    return [
      `https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`,
      `https://s3.${config.S3_REGION}.amazonaws.com`,
    ];
  }
  const endpoint = new URL(config.S3_ENDPOINT);
  return [
    config.S3_FORCE_PATH_STYLE
      ? endpoint.origin
      : `${endpoint.protocol}//${config.S3_BUCKET}.${endpoint.host}`,
  ];
}
