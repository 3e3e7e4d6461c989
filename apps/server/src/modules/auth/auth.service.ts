import { randomUUID } from 'node:crypto';
import {
  DEVICE_SESSION_MAX_TOKEN_AGE_S,
  EMAIL_RESEND_WAIT_S,
  ID_TOKEN_TTL_S,
  supportedLanguageSchema,
  type AuthSession,
  type SupportedLanguage,
} from '@homesitter/contract';
import type { Mailer } from '../../adapters/mail/mailer.js';
import { commonErrors } from '../../platform/errors.js';
import type { AuthContext } from '../../platform/http/route.js';
import type { Logger } from '../../platform/logger.js';
import { authErrors } from './auth.errors.js';
import { lockoutMail, passwordResetMail, verificationMail } from './auth.mails.js';
import type { AuthRepository, Identity } from './auth.repository.js';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.js';
import type { SignInBrake, SignInFailures } from './sign-in-brake.js';
import {
  hashIdentity,
  hashOpaqueToken,
  newIdentityId,
  newOpaqueToken,
  type IdTokenSubject,
} from './tokens.js';

const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
const VERIFY_CODE_TTL_MS = 24 * 3600 * 1000;
const RESET_CODE_TTL_MS = 3600 * 1000;
/**
 * How long wrong passwords pause sign-ins from one address (the sign-in brake's window), and the owner is
 * told of failed sign-ins at most once in it.
 */
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export interface AuthServiceDeps {
  repo: AuthRepository;
  signIdToken: (subject: IdTokenSubject) => Promise<string>;
  mailer: Mailer;
  publicUrl: string;
  isSignupEnabled: () => Promise<boolean>;
  /** VERIFICATION_EXEMPT_EMAILS: test accounts that may skip verification. */
  isVerificationExempt: (email: string) => boolean;
  /**
   * Wrong passwords pause the address they come from and slow down further guesses at the email from
   * addresses that failed; a right password from an address without failures is always let in, so nobody
   * can lock the owner out of their own account (sign-in-brake.ts).
   */
  signInBrake: SignInBrake;
  log: Logger;
  /** The external issuer (`AUTH_ISSUER`) whose deleted identities are recorded, when one is configured. */
  externalIssuer?: string | undefined;
  now?: () => Date;
}

export interface SignUpInput {
  email: string;
  password: string;
  phone?: string | undefined;
  language: SupportedLanguage;
}

/** The rules of our identity provider: accounts, sessions (ID + refresh tokens) and mailed codes. */
export function createAuthService(deps: AuthServiceDeps) {
  const { repo, mailer, log } = deps;
  const now = deps.now ?? (() => new Date());
  const externalIssuer = () => {
    if (!deps.externalIssuer) throw new Error('no external issuer is configured');
    return deps.externalIssuer;
  };
  /** Mails under way after their answer went out: resets and lockout notices (`settled` waits for them). */
  const resets = new Set<Promise<void>>();

  async function mailResetCode(email: string): Promise<void> {
    const identity = await repo.findIdentityByEmail(email);
    if (!identity) return;
    const code = newOpaqueToken(24);
    await repo.insertCode({
      identityId: identity.id,
      purpose: 'reset_password',
      codeHash: code.hash,
      expiresAt: new Date(now().getTime() + RESET_CODE_TTL_MS),
    });
    const link = `${deps.publicUrl}/forgot-password?code=${encodeURIComponent(code.value)}`;
    await mailer.send(passwordResetMail(languageOf(identity), identity.email, link));
  }

  /** Accounts whose owner was told of failed sign-ins, until when no other mail is sent. */
  const toldOwners = new Map<string, number>();

  /** Tells the owner that wrong passwords hold back sign-ins to their account: once a window, after the answer. */
  function tellOwner(identity: Identity, failed: SignInFailures): void {
    const at = now().getTime();
    for (const [id, until] of toldOwners) if (until <= at) toldOwners.delete(id);
    if (toldOwners.has(identity.id)) return;
    toldOwners.set(identity.id, at + LOCKOUT_WINDOW_MS);
    const link = `${deps.publicUrl}/forgot-password`;
    const mail = lockoutMail(languageOf(identity), identity.email, link, failed);
    const work = mailer
      .send(mail)
      .catch((err: unknown) => log.error({ err }, 'lockout mail failed'))
      .finally(() => resets.delete(work));
    resets.add(work);
  }

  async function issueSession(identity: Identity, familyId: string = randomUUID()): Promise<AuthSession> {
    const refresh = newOpaqueToken();
    await repo.insertRefreshToken({
      identityId: identity.id,
      familyId,
      tokenHash: refresh.hash,
      expiresAt: new Date(now().getTime() + REFRESH_TOKEN_TTL_MS),
    });
    const idToken = await deps.signIdToken({
      uid: identity.id,
      email: identity.email,
      emailVerified: identity.emailVerified,
    });
    return {
      success: true,
      idToken,
      refreshToken: refresh.value,
      expiresIn: ID_TOKEN_TTL_S,
      user: {
        uid: identity.id,
        email: identity.email,
        emailVerified: identity.emailVerified,
        verificationExempt: deps.isVerificationExempt(identity.email),
      },
    };
  }

  function languageOf(identity: Identity): SupportedLanguage {
    const parsed = supportedLanguageSchema.safeParse(identity.language);
    return parsed.success ? parsed.data : 'en';
  }

  async function mailVerification(identity: Identity): Promise<void> {
    const code = newOpaqueToken(24);
    const sentAt = now();
    await repo.insertCode({
      identityId: identity.id,
      purpose: 'verify_email',
      codeHash: code.hash,
      expiresAt: new Date(sentAt.getTime() + VERIFY_CODE_TTL_MS),
    });
    await repo.setVerificationSentAt(identity.id, sentAt);
    const link = `${deps.publicUrl}/verify-email?code=${encodeURIComponent(code.value)}`;
    await mailer.send(verificationMail(languageOf(identity), identity.email, link));
  }

  return {
    async signUp(input: SignUpInput): Promise<AuthSession> {
      if (!(await deps.isSignupEnabled())) throw authErrors.signupDisabled();
      if (await repo.findIdentityByEmail(input.email)) throw authErrors.emailTaken();
      const identity = await repo.insertIdentity({
        id: newIdentityId(),
        email: input.email,
        passwordHash: await hashPassword(input.password),
        phone: input.phone ?? null,
        language: input.language,
      });
      if (!identity) throw authErrors.emailTaken();
      try {
        await mailVerification(identity);
      } catch (err) {
        // The account exists either way; the verify-email screen offers "send again".
        log.error({ err, uid: identity.id }, 'verification mail failed');
      }
      return issueSession(identity);
    },

    async signIn(email: string, password: string, address = 'unknown'): Promise<AuthSession> {
      const wait = deps.signInBrake.attempt(email, address);
      if (wait > 0) throw commonErrors.rateLimited(wait);
      const identity = await repo.findIdentityByEmail(email);
      const ok = await verifyPassword(password, identity?.passwordHash ?? (await DUMMY_HASH_PROMISE));
      if (!identity || !ok) {
        const failed = deps.signInBrake.failures(email, address);
        if (identity && (failed.addressPaused || failed.slowed)) tellOwner(identity, failed);
        throw authErrors.invalidCredentials();
      }
      deps.signInBrake.succeeded(email, address);
      return issueSession(identity);
    },

    async refresh(refreshToken: string): Promise<AuthSession> {
      const row = await repo.findRefreshToken(hashOpaqueToken(refreshToken));
      const at = now();
      if (!row || row.revokedAt) throw authErrors.refreshTokenInvalid();
      if (row.rotatedAt) {
        // A rotated token came back: someone holds a copy. End the whole sign-in for both holders.
        await repo.revokeFamily(row.familyId, at);
        log.warn({ familyId: row.familyId }, 'refresh token reused; family revoked');
        throw authErrors.refreshTokenReused();
      }
      if (row.expiresAt <= at) throw authErrors.refreshTokenInvalid();
      if (!(await repo.markRotated(row.id, at))) {
        await repo.revokeFamily(row.familyId, at);
        throw authErrors.refreshTokenReused();
      }
      const identity = await repo.findIdentityById(row.identityId);
      if (!identity) throw authErrors.refreshTokenInvalid();
      return issueSession(identity, row.familyId);
    },

    /**
     * A new session (a new refresh-token family) for a device of the caller, the desktop helper say: the
     * caller's ID token must be fresh (`iat` at most `DEVICE_SESSION_MAX_TOKEN_AGE_S` ago), so a token
     * copied off a page an hour ago cannot mint long-lived sessions.
     */
    async deviceSession(caller: {
      subject: string;
      issuer: 'local' | 'external';
      /** The token's `iat` (seconds since the epoch), undefined when it has none. */
      issuedAt: number | undefined;
    }): Promise<AuthSession> {
      if (caller.issuer !== 'local') throw authErrors.deviceSessionExternal();
      const age = now().getTime() / 1000 - (caller.issuedAt ?? 0);
      if (caller.issuedAt === undefined || age > DEVICE_SESSION_MAX_TOKEN_AGE_S) {
        throw authErrors.deviceSessionTokenTooOld(DEVICE_SESSION_MAX_TOKEN_AGE_S / 60);
      }
      const identity = await repo.findIdentityById(caller.subject);
      if (!identity) throw authErrors.refreshTokenInvalid();
      return issueSession(identity);
    },

    async signOut(refreshToken: string): Promise<void> {
      const row = await repo.findRefreshToken(hashOpaqueToken(refreshToken));
      if (row) await repo.revokeToken(row.id, now());
    },

    async resendVerification(identityId: string): Promise<{ sent: true; retryAfterSeconds: number }> {
      const identity = await repo.findIdentityById(identityId);
      if (!identity) throw authErrors.noIdentity();
      if (identity.emailVerified) throw authErrors.alreadyVerified();
      if (identity.verificationSentAt) {
        const elapsed = (now().getTime() - identity.verificationSentAt.getTime()) / 1000;
        if (elapsed < EMAIL_RESEND_WAIT_S)
          throw authErrors.resendTooSoon(Math.ceil(EMAIL_RESEND_WAIT_S - elapsed));
      }
      await mailVerification(identity);
      return { sent: true, retryAfterSeconds: EMAIL_RESEND_WAIT_S };
    },

    async verifyEmail(code: string): Promise<void> {
      const identityId = await repo.consumeCode(hashOpaqueToken(code), 'verify_email', now());
      if (!identityId) throw authErrors.verificationCodeInvalid();
      await repo.markEmailVerified(identityId);
    },

    /**
     * Same answer, in the same time, whether or not the account exists (no account enumeration): the
     * lookup, the code and the mail happen after the answer.
     */
    forgotPassword(email: string): void {
      const work = mailResetCode(email)
        .catch((err: unknown) => log.error({ err }, 'password reset mail failed'))
        .finally(() => resets.delete(work));
      resets.add(work);
    },

    /** Resolves when every password reset asked for so far is done (tests, shutdown). */
    async settled(): Promise<void> {
      while (resets.size > 0) await Promise.all(resets);
    },

    /**
     * A new password for a signed-in owner who knows the current one: every session ends (a thief's too)
     * and this one goes on with the session answered.
     */
    async changePassword(identityId: string, current: string, next: string): Promise<AuthSession> {
      const identity = await repo.findIdentityById(identityId);
      if (!identity) throw authErrors.invalidCredentials();
      if (!(await verifyPassword(current, identity.passwordHash))) throw authErrors.currentPasswordWrong();
      await repo.setPasswordHash(identity.id, await hashPassword(next));
      await repo.revokeAllForIdentity(identity.id, now());
      return issueSession(identity);
    },

    async resetPassword(code: string, password: string): Promise<void> {
      const identityId = await repo.consumeCode(hashOpaqueToken(code), 'reset_password', now());
      if (!identityId) throw authErrors.resetCodeInvalid();
      await repo.setPasswordHash(identityId, await hashPassword(password));
      await repo.revokeAllForIdentity(identityId, now());
      // Following the mailed link proves the address too.
      await repo.markEmailVerified(identityId);
    },

    async isEmailVerified(identityId: string): Promise<boolean> {
      return (await repo.findIdentityById(identityId))?.emailVerified ?? false;
    },

    async identityExists(identityId: string): Promise<boolean> {
      return (await repo.findIdentityById(identityId)) !== undefined;
    },

    /**
     * Ends the identity behind a deleted account: ours is deleted (its tokens then name no identity); an
     * external issuer's cannot be, so its deletion time is recorded against a hash of it.
     */
    async deleteIdentity(auth: Pick<AuthContext, 'issuer' | 'subject'>): Promise<void> {
      if (auth.issuer === 'local') return repo.deleteIdentity(auth.subject);
      await repo.recordDeletedIdentity(hashIdentity(externalIssuer(), auth.subject), now());
    },

    /** When the account of an external identity was deleted; undefined if it never was. */
    async externalDeletionTime(subject: string): Promise<Date | undefined> {
      return repo.findDeletionTime(hashIdentity(externalIssuer(), subject));
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
