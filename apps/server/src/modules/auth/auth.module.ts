import type { Mailer } from '../../adapters/mail/mailer.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import { createRateLimiter } from '../../platform/rate-limiter.js';
import { createAdminGuard } from './admin.guard.js';
import type { SignupApi } from '../signup/signup.module.js';
import { createAccessGuards } from './auth.guard.js';
import { createAuthRepository } from './auth.repository.js';
import { registerAuthRoutes } from './auth.routes.js';
import { createAuthService, LOCKOUT_WINDOW_MS } from './auth.service.js';
import { createIdentityPresence } from './identity-presence.js';

/** How long "this identity exists" is remembered per instance: a deleted account's tokens die within it. */
const IDENTITY_PRESENCE_TTL_MS = 60_000;
import { createIdTokenSigner, createTokenVerifier, type SigningKey } from './tokens.js';

// What other modules may use besides the API: rules and errors they share.
export { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.js';

export interface AuthNeeds {
  signup: SignupApi;
  mailer: Mailer;
  signingKey: SigningKey;
  adminToken: string;
  /** Failed sign-ins per email address from one client address in 15 minutes (10 times that from anywhere). */
  signInPerEmail: number;
}

/**
 * Our own identity provider (sign-up, sign-in, verification, password reset, tokens) and the access guards
 * every route is behind; ID tokens of an external issuer (`AUTH_JWKS_URL`) are accepted beside ours.
 */
export async function createAuthModule(context: ModuleContext, needs: AuthNeeds) {
  const { config, log } = context;
  const auth = createAuthService({
    repo: createAuthRepository(context.database.db),
    signIdToken: createIdTokenSigner(needs.signingKey, config.PUBLIC_URL),
    mailer: needs.mailer,
    publicUrl: config.PUBLIC_URL,
    isSignupEnabled: () => needs.signup.isEnabled(),
    isVerificationExempt: (email) => config.VERIFICATION_EXEMPT_EMAILS.includes(email),
    signInLimiter: createRateLimiter({ max: needs.signInPerEmail, windowMs: LOCKOUT_WINDOW_MS }),
    // Ten times the per-address bound, from anywhere: guessing from many addresses stays slow.
    signInPerEmailLimiter: createRateLimiter({ max: needs.signInPerEmail * 10, windowMs: LOCKOUT_WINDOW_MS }),
    signInLockoutAttempts: needs.signInPerEmail,
    log,
  });
  const identities = createIdentityPresence({
    exists: (identityId) => auth.identityExists(identityId),
    ttlMs: IDENTITY_PRESENCE_TTL_MS,
  });
  // This instance forgets at once; another instance within the TTL (and its tokens' signature cache).
  context.events.on('user.deleted', ({ subject }) => identities.forget(subject));
  const guards = createAccessGuards({
    verify: await createTokenVerifier(
      needs.signingKey,
      config.PUBLIC_URL,
      config.AUTH_JWKS_URL && config.AUTH_ISSUER
        ? { jwksUrl: config.AUTH_JWKS_URL, issuer: config.AUTH_ISSUER, audience: config.AUTH_AUDIENCE }
        : undefined,
    ),
    exemptEmails: config.VERIFICATION_EXEMPT_EMAILS,
    isLocalIdentityVerified: (identityId) => auth.isEmailVerified(identityId),
    localIdentityExists: (identityId) => identities.exists(identityId),
    admin: createAdminGuard(needs.adminToken),
  });
  return {
    api: {
      guards,
      /** Resolves when the password resets asked for so far have mailed their codes (tests). */
      resetsSettled: () => auth.settled(),
      /** Forgets a local sign-in identity (its account deleted). */
      deleteIdentity: (identityId: string) => auth.deleteIdentity(identityId),
    },
    routes: (app, { rateLimit }) =>
      registerAuthRoutes(app, { auth, guards, signingKey: needs.signingKey, rateLimit }),
    // The mailer is closed after the app: resets under way send their mail first.
    close: () => auth.settled(),
  } satisfies AppModule<unknown>;
}
export type AuthApi = Awaited<ReturnType<typeof createAuthModule>>['api'];
