import { randomBytes, randomInt } from 'node:crypto';
import type { CameraUploadCredentials } from '@homesitter/contract';
import type { SecretBox } from '../../platform/secrets.js';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from '../auth/auth.module.js';
import { userErrors } from '../users/users.module.js';
import {
  isUniqueViolation,
  type CamerasRepository,
  type UploadCredentialsRow,
} from './cameras.repository.js';
import { createVerifiedLogins } from './verified-logins.js';

export interface UploadCredentialsServiceDeps {
  repo: CamerasRepository;
  secrets: SecretBox;
  /** Where cameras upload: host name and the FTP and SMTP ingest ports. */
  publicHost: string;
  ftpPort: number;
  smtpPort: number;
}

const USERNAME_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** `cam` and 10 characters without look-alikes (cameras' keypads make people type these). */
function newUsername(): string {
  let name = 'cam';
  for (let i = 0; i < 10; i += 1) name += USERNAME_ALPHABET[randomInt(USERNAME_ALPHABET.length)];
  return name;
}

/** A camera's right login is checked with scrypt again after this long (verified-logins.ts). */
const VERIFIED_LOGIN_TTL_MS = 10 * 60_000;
const VERIFIED_LOGINS_MAX = 10_000;

/** 20 URL-safe characters (120 bits). */
function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * The per-user login cameras upload with (FTP and email). The password is stored hashed, for the ingest
 * servers to check, and encrypted, for the owner to read again in camera setup.
 */
export function createUploadCredentialsService(deps: UploadCredentialsServiceDeps) {
  const { repo, secrets } = deps;
  const verified = createVerifiedLogins({ ttlMs: VERIFIED_LOGIN_TTL_MS, max: VERIFIED_LOGINS_MAX });

  async function ownerId(subject: string): Promise<string> {
    const row = await repo.findOwner(subject);
    if (!row) throw userErrors.notFound();
    return row.id;
  }

  function present(row: UploadCredentialsRow): CameraUploadCredentials {
    return {
      username: row.username,
      password: secrets.decrypt(row.passwordEncrypted, row.userId),
      email_address: `${row.username}@${deps.publicHost}`,
      smtp_host: deps.publicHost,
      smtp_port: deps.smtpPort,
      ftp_host: deps.publicHost,
      ftp_port: deps.ftpPort,
    };
  }

  async function sealed(userId: string, password: string) {
    return {
      passwordHash: await hashPassword(password),
      passwordEncrypted: secrets.encrypt(password, userId),
    };
  }

  async function getOrCreate(userId: string): Promise<UploadCredentialsRow> {
    const existing = await repo.findUploadCredentials(userId);
    if (existing) return existing;
    for (;;) {
      try {
        const inserted = await repo.insertUploadCredentials({
          userId,
          username: newUsername(),
          ...(await sealed(userId, newPassword())),
        });
        // Lost a race with a parallel first call: theirs stands.
        const row = inserted ?? (await repo.findUploadCredentials(userId));
        if (!row) throw new Error('upload credentials vanished');
        return row;
      } catch (err) {
        // A username collision (1 in 32^10): draw again.
        if (!isUniqueViolation(err)) throw err;
      }
    }
  }

  return {
    /** The user's upload login, created on first use. */
    async get(subject: string): Promise<CameraUploadCredentials> {
      return present(await getOrCreate(await ownerId(subject)));
    },

    /** A new password; the old one stops working at once. The username stays (cameras keep their host). */
    async regenerate(subject: string): Promise<CameraUploadCredentials> {
      const userId = await ownerId(subject);
      if (!(await repo.findUploadCredentials(userId))) await getOrCreate(userId);
      const { passwordHash, passwordEncrypted } = await sealed(userId, newPassword());
      const row = await repo.replaceUploadPassword(userId, passwordHash, passwordEncrypted);
      if (!row) throw new Error('upload credentials vanished');
      return present(row);
    },

    /** For the FTP and SMTP ingest servers: the user an upload login belongs to, or null. */
    async verifyUploadCredentials(username: string, password: string): Promise<string | null> {
      const row = await repo.findUploadCredentialsByUsername(username.trim().toLowerCase());
      if (!row) {
        await verifyPassword(password, await DUMMY_HASH_PROMISE);
        return null;
      }
      const ok = await verified.check(row.username, password, row.passwordHash, () =>
        verifyPassword(password, row.passwordHash),
      );
      return ok ? row.userId : null;
    },
  };
}
export type UploadCredentialsService = ReturnType<typeof createUploadCredentialsService>;
