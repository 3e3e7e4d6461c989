import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertValidKey, roundedExpiry, signingWindowSeconds, type ObjectStorage } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** S3-compatible endpoint (MinIO, R2, Ceph…); unset means AWS. */
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers want. */
  forcePathStyle?: boolean;
  /** Prefix every key with this folder inside the bucket. */
  prefix?: string | undefined;
  now?: () => number;
  /**
   * Storing a file again after a passing failure (5xx, throttling, a reset connection): how many more
   * tries (3) and the first backoff (200 ms; each later one up to twice as long, with full jitter).
   */
  retry?: { retries: number; baseDelayMs: number };
}

const DEFAULT_RETRY = { retries: 3, baseDelayMs: 200 };
/** The longest wait between two tries: a camera's upload is held open meanwhile. */
const MAX_RETRY_DELAY_MS = 2_000;
const TRANSIENT_NAMES = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'InternalError',
  'ServiceUnavailable',
  'TimeoutError',
]);
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * Whether a failed S3 call may succeed if tried again: a 5xx or 429, S3's throttling and timeout errors, or
 * no answer at all (a reset or refused connection). A 4xx (denied, bad request, no such bucket) will not.
 */
export function isTransientS3Error(err: unknown): boolean {
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500 || status === 429 || TRANSIENT_NAMES.has(e?.name ?? '');
  return TRANSIENT_NAMES.has(e?.name ?? '') || TRANSIENT_CODES.has(e?.code ?? '');
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** Objects in an S3-compatible bucket; clients get presigned GET URLs straight from the bucket. */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const now = options.now ?? Date.now;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  // A file's body is a stream the SDK cannot rewind, so its own retries are off for files: `putFile` tries
  // again itself, with a fresh stream each time.
  const fileClient = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    maxAttempts: 1,
    // The SDK would print "non-retryable streaming request" on every failure; the caller reports it.
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  const retry = options.retry ?? DEFAULT_RETRY;
  const Bucket = options.bucket;
  const base = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : '';
  const full = (key: string) => {
    assertValidKey(key);
    return `${base}${key}`;
  };

  return {
    kind: 's3',
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: full(key), Body: body, ContentType: contentType }),
      );
    },
    async putFile(key, filePath, contentType) {
      const { size } = await stat(filePath);
      const Key = full(key);
      for (let attempt = 0; ; attempt++) {
        try {
          await fileClient.send(
            new PutObjectCommand({
              Bucket,
              Key,
              Body: createReadStream(filePath),
              ContentLength: size,
              ContentType: contentType,
            }),
          );
          return;
        } catch (err) {
          if (attempt >= retry.retries || !isTransientS3Error(err)) throw err;
          // Full jitter: uploads refused together do not all come back together.
          const ceiling = Math.min(MAX_RETRY_DELAY_MS, retry.baseDelayMs * 2 ** attempt);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
        }
      }
    },
    async *list(prefix) {
      const clean = prefix.replace(/\/+$/, '');
      const Prefix = clean ? `${full(clean)}/` : base;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        for (const o of page.Contents ?? [])
          if (o.Key) yield { key: o.Key.slice(base.length), modifiedAt: o.LastModified ?? new Date(0) };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: full(key) }));
        return {
          body: out.Body as Readable,
          contentType: out.ContentType ?? 'application/octet-stream',
          size: out.ContentLength ?? 0,
        };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },
    async deletePrefix(prefix) {
      const Prefix = `${full(prefix.replace(/\/+$/, ''))}/`;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0) {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async signedUrl(key, ttlSeconds) {
      // The signing time is rounded down to a window so the same URL is handed out for a while (cacheable),
      // and it stays valid at least ttlSeconds from now.
      const nowMs = now();
      const window = signingWindowSeconds(ttlSeconds);
      const expiresAt = roundedExpiry(ttlSeconds, nowMs);
      const signingSeconds = Math.floor(nowMs / 1000 / window) * window;
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: full(key) }), {
        signingDate: new Date(signingSeconds * 1000),
        expiresIn: expiresAt - signingSeconds,
      });
    },
  };
}
