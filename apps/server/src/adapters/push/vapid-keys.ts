import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';

/** The application server identity of Web Push (RFC 8292): a P-256 key pair and a contact. */
export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (87 characters); browsers subscribe with it. */
  publicKey: string;
  /** P-256 private scalar, base64url (43 characters). */
  privateKey: string;
  /** `mailto:` or `https:` contact the push services may use. */
  subject: string;
}

const PUBLIC_KEY = /^B[A-Za-z0-9_-]{86}$/;
const PRIVATE_KEY = /^[A-Za-z0-9_-]{43}$/;

export class VapidKeyError extends Error {}

function checked(publicKey: string, privateKey: string, where: string) {
  const pub = publicKey.replace(/=+$/, '');
  const priv = privateKey.replace(/=+$/, '');
  if (!PUBLIC_KEY.test(pub)) throw new VapidKeyError(`${where}: the VAPID public key is not a P-256 key`);
  if (!PRIVATE_KEY.test(priv)) throw new VapidKeyError(`${where}: the VAPID private key is not 32 bytes`);
  return { publicKey: pub, privateKey: priv };
}

/**
 * The VAPID keys: from the environment when both are set, else from `DATA_DIR/vapid.json`, generated there
 * once (0600). They must outlive restarts: every browser subscription is bound to the public key, and a
 * new key would silently orphan them all.
 */
export function loadVapidKeys(input: {
  publicKey: string | undefined;
  privateKey: string | undefined;
  subject: string;
  dataDir: string;
}): VapidKeys {
  if (!/^(mailto:|https:\/\/)/.test(input.subject)) {
    throw new VapidKeyError('VAPID_SUBJECT must start with mailto: or https://');
  }
  if (input.publicKey || input.privateKey) {
    if (!input.publicKey || !input.privateKey) {
      throw new VapidKeyError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all');
    }
    return { ...checked(input.publicKey, input.privateKey, 'VAPID_*'), subject: input.subject };
  }
  const file = join(input.dataDir, 'vapid.json');
  if (existsSync(file)) {
    let stored: { publicKey?: unknown; privateKey?: unknown } | undefined;
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
    } catch {
      stored = undefined;
    }
    if (typeof stored?.publicKey !== 'string' || typeof stored.privateKey !== 'string') {
      throw new VapidKeyError(`${file}: expected {"publicKey": "…", "privateKey": "…"}`);
    }
    return { ...checked(stored.publicKey, stored.privateKey, file), subject: input.subject };
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(input.dataDir, { recursive: true });
  // Written under a temporary name and renamed, so a crash never leaves half a key file behind.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey })}\n`, {
    mode: 0o600,
  });
  renameSync(tmp, file);
  return { ...checked(keys.publicKey, keys.privateKey, file), subject: input.subject };
}

/** `VAPID_SUBJECT`, else the public URL when it is https, else the sender address of outgoing mail. */
export function defaultVapidSubject(publicUrl: string, mailFrom: string): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}
