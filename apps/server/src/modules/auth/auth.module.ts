import type { FastifyRequest } from 'fastify';
import type { Mailer } from '../../adapters/mail/mailer.js';
import type { AuthContext } from '../../platform/http/route.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import { createAdminGuard } from './admin.guard.js';
import type { SignupApi } from '../signup/signup.module.js';
import { createAccessGuards } from './auth.guard.js';
import { createAuthRepository } from './auth.repository.js';
import { registerAuthRoutes } from './auth.routes.js';
import { createAuthService, LOCKOUT_WINDOW_MS } from './auth.service.js';
import { createIdentityPresence } from './identity-presence.js';
import { createSignInBrake } from './sign-in-brake.js';
import { createIdTokenSigner, createTokenVerifier, type SigningKey } from './tokens.js';

/**
 * How long an answer about an identity (exists, deleted when) is remembered per instance. A deletion drops
 * it on every instance at once (`identity.revoked`); the TTL only bounds it when that word is lost.
 */
const IDENTITY_PRESENCE_TTL_MS = 60_000;

// What other modules may use besides the API: rules and errors they share.
export { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.js';

/**
 * The longest a slowed-down email makes an address that failed wait between guesses: a guesser gets a few
 * tries an hour; the owner who mistyped during an attack waits at most this (from another address, not at all).
 */
const SIGN_IN_MAX_DELAY_MS = 5 * 60_000;

export interface AuthNeeds {
  signup: SignupApi;
  mailer: Mailer;
  signingKey: SigningKey;
  adminToken: string;
  /**
   * Failed sign-ins per email address from one client address in 15 minutes before it is paused, and from
   * anywhere before guesses at that email are slowed down.
   */
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
    signInBrake: createSignInBrake({
      perAddress: needs.signInPerEmail,
      freeFailures: needs.signInPerEmail,
      windowMs: LOCKOUT_WINDOW_MS,
      maxDelayMs: SIGN_IN_MAX_DELAY_MS,
    }),
    externalIssuer: config.AUTH_JWKS_URL ? config.AUTH_ISSUER : undefined,
    log,
  });
  const identities = createIdentityPresence({
    exists: (identityId) => auth.identityExists(identityId),
    deletedAt: (subject) => auth.externalDeletionTime(subject),
    ttlMs: IDENTITY_PRESENCE_TTL_MS,
  });
  // The instance that deleted the account forgets at once; the others when the realtime fan-out relays it
  // (`identity.revoked`, every instance including this one).
  context.events.on('user.deleted', ({ subject }) => identities.forget(subject));
  context.events.on('identity.revoked', ({ subject }) => identities.forget(subject));
  const admin = createAdminGuard(needs.adminToken);
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
    isIdentityCurrent: (caller) => identities.isCurrent(caller),
    admin,
  });
  return {
    api: {
      guards,
      /** Whether a request carries the operator's token (ADMIN_TOKEN), for answers with more detail. */
      isAdmin: (req: FastifyRequest) =>
        admin(req).then(
          () => true,
          () => false,
        ),
      /** Resolves when the password resets asked for so far have mailed their codes (tests). */
      resetsSettled: () => auth.settled(),
      /**
       * Ends the identity behind a deleted account: ours is deleted, an external issuer's is recorded as
       * deleted; either way its tokens are refused from now on.
       */
      deleteIdentity: async (caller: Pick<AuthContext, 'issuer' | 'subject'>) => {
        await auth.deleteIdentity(caller);
        identities.forget(caller.subject);
      },
    },
    routes: (app, { rateLimit }) =>
      registerAuthRoutes(app, { auth, guards, signingKey: needs.signingKey, rateLimit }),
    // The mailer is closed after the app: resets under way send their mail first.
    close: () => auth.settled(),
  } satisfies AppModule<unknown>;
}
export type AuthApi = Awaited<ReturnType<typeof createAuthModule>>['api'];
