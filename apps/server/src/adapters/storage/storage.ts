import type { Readable } from 'node:stream';

/** A stored object, ready to stream. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  size: number;
}

/**
 * The object storage port (DESIGN.md "object storage"): files addressed by opaque keys
 * (`users/<userId>/…`); clients only ever see signed URLs that expire.
 */
export interface ObjectStorage {
  kind: 'fs' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Stores a local file's bytes, streamed, so a large clip never sits in memory whole. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** Every object under `prefix` with its last change (for sweeps of leftovers), in no particular order. */
  list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes one object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a user's whole folder on account deletion). */
  deletePrefix(prefix: string): Promise<void>;
  /** A URL anyone holding it may GET until `ttlSeconds` from now (at least; see `signingWindow`). */
  signedUrl(key: string, ttlSeconds: number): Promise<string>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are relative paths of safe segments: no `..`, no leading slash, no odd characters. */
export function assertValidKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((s) => s === '..' || s === '.')) {
    throw new Error(`invalid storage key: ${key}`);
  }
}

/**
 * Signed URLs are stable for a window so browsers can cache them: the expiry is rounded up to the next
 * multiple of the window, so a URL always lives at least the TTL and the same URL is handed out for a while.
 */
export function signingWindowSeconds(ttlSeconds: number): number {
  return Math.max(60, Math.floor(ttlSeconds / 10));
}

export function roundedExpiry(ttlSeconds: number, nowMs = Date.now()): number {
  const window = signingWindowSeconds(ttlSeconds);
  return Math.ceil((Math.floor(nowMs / 1000) + ttlSeconds) / window) * window;
}

/** Media types by key extension; keys are named by the code that stores them, so the extension is known. */
const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  png: 'image/png',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  m4s: 'video/iso.segment',
  m3u8: 'application/vnd.apple.mpegurl',
};

export function contentTypeOfKey(key: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase();
  return (ext && CONTENT_TYPES[ext]) ?? 'application/octet-stream';
}
