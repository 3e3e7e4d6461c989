import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** Reads a 32-byte key written as base64 (or base64url) or hex. */
export function parseSecretsKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`The secrets key must be ${KEY_BYTES} bytes (base64 or hex); this one has ${key.length}`);
  }
  return key;
}

/** `SECRETS_KEY` if set, else `DATA_DIR/secrets.key`, created on first start (0600). */
export function loadSecretsKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseSecretsKey(configured);
  const file = join(dataDir, 'secrets.key');
  if (existsSync(file)) return parseSecretsKey(readFileSync(file, 'utf8'));
  const key = randomBytes(KEY_BYTES);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

/**
 * Encrypts small secrets (camera logins, upload passwords) for storage with AES-256-GCM: a fresh 96-bit IV
 * per value and the authentication tag, so a tampered value fails to decrypt rather than decrypting wrong.
 * Stored as `v1:<iv>:<tag>:<ciphertext>`, base64url. `context` (e.g. the owner's id) is bound as additional
 * data: a value copied to another row does not decrypt there.
 */
export function createSecretBox(key: Buffer) {
  if (key.length !== KEY_BYTES) throw new Error(`AES-256 needs a ${KEY_BYTES}-byte key`);
  return {
    encrypt(plaintext: string, context = ''): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join(':');
    },
    decrypt(stored: string, context = ''): string {
      const [version, iv, tag, body] = stored.split(':');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('Not an encrypted value of this server');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
