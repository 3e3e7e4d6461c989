import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretsKey, parseSecretsKey } from './secrets.js';

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox(randomBytes(32));

  it('gives back what it encrypted, and never stores the plaintext', () => {
    const stored = box.encrypt('admin:hunter2', 'user-1');
    expect(stored).not.toContain('hunter2');
    expect(stored.startsWith('v1:')).toBe(true);
    expect(box.decrypt(stored, 'user-1')).toBe('admin:hunter2');
  });

  it('uses a fresh IV for every value', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a tampered value, another context and another key', () => {
    const stored = box.encrypt('secret', 'user-1');
    const parts = stored.split(':');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.decrypt(parts.join(':'), 'user-1')).toThrow();
    expect(() => box.decrypt(stored, 'user-2')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).decrypt(stored, 'user-1')).toThrow();
    expect(() => box.decrypt('plain text')).toThrow('Not an encrypted value');
  });
});

describe('secrets key', () => {
  it('is created once in DATA_DIR with mode 0600, then read back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-secrets-'));
    const first = loadSecretsKey(undefined, dir);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey(undefined, dir).equals(first)).toBe(true);
    expect(parseSecretsKey(readFileSync(join(dir, 'secrets.key'), 'utf8')).equals(first)).toBe(true);
  });

  it('comes from SECRETS_KEY as base64 or hex, and must be 32 bytes', () => {
    const key = randomBytes(32);
    expect(loadSecretsKey(key.toString('base64'), '/nonexistent').equals(key)).toBe(true);
    expect(loadSecretsKey(key.toString('hex'), '/nonexistent').equals(key)).toBe(true);
    expect(() => parseSecretsKey('too-short')).toThrow('must be 32 bytes');
  });
});
