import { endpoints, type SupportedLanguage } from '@homesitter/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import { authErrors } from './auth.errors.js';
import type { AuthService } from './auth.service.js';
import { tokenIssuedAt, type SigningKey } from './tokens.js';

export interface AuthRoutesDeps {
  auth: AuthService;
  guards: AccessGuards;
  signingKey: SigningKey;
  /** Per-IP limit on the calls worth guessing at. */
  rateLimit: { max: number; timeWindow: number };
}

function languageFrom(req: FastifyRequest): SupportedLanguage {
  return /^\s*de\b/i.test(req.headers['accept-language'] ?? '') ? 'de' : 'en';
}

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const { auth, guards } = deps;
  const limited = { rateLimit: deps.rateLimit };

  app.get('/.well-known/jwks.json', { schema: { hide: true } }, async (_req, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return { keys: [deps.signingKey.publicJwk] };
  });

  route(
    app,
    guards,
    endpoints.signUp,
    async (req) =>
      auth.signUp({
        email: req.body.email,
        password: req.body.password,
        phone: req.body.phone,
        language: req.body.preferred_language ?? languageFrom(req),
      }),
    limited,
  );

  route(
    app,
    guards,
    endpoints.signIn,
    async (req) => auth.signIn(req.body.email, req.body.password, req.ip),
    limited,
  );

  // Not limited per IP: a refresh token is 256 random bits (nothing to guess), and a household behind one
  // address refreshes many devices.
  route(app, guards, endpoints.refreshToken, async (req) => auth.refresh(req.body.refreshToken));

  // Needs a valid bearer token, so nothing here is worth guessing at: not limited per IP.
  route(app, guards, endpoints.deviceSession, async (req) => {
    const caller = callerOf(req);
    return auth.deviceSession({
      subject: caller.subject,
      issuer: caller.issuer,
      issuedAt: tokenIssuedAt(caller.token),
    });
  });

  route(app, guards, endpoints.signOut, async (req) => {
    await auth.signOut(req.body.refreshToken);
    return { success: true as const };
  });

  route(app, guards, endpoints.sendVerificationEmail, async (req) => ({
    success: true as const,
    data: await auth.resendVerification(callerOf(req).subject),
  }));

  route(
    app,
    guards,
    endpoints.verifyEmail,
    async (req) => {
      await auth.verifyEmail(req.body.code);
      return { success: true as const, data: { emailVerified: true } };
    },
    limited,
  );

  route(
    app,
    guards,
    endpoints.forgotPassword,
    async (req) => {
      auth.forgotPassword(req.body.email);
      return { success: true as const };
    },
    limited,
  );

  route(
    app,
    guards,
    endpoints.resetPassword,
    async (req) => {
      await auth.resetPassword(req.body.code, req.body.password);
      return { success: true as const };
    },
    limited,
  );

  route(
    app,
    guards,
    endpoints.changePassword,
    async (req) => {
      const caller = callerOf(req);
      if (caller.issuer !== 'local') throw authErrors.passwordNotOurs();
      return auth.changePassword(caller.subject, req.body.current_password, req.body.new_password);
    },
    limited,
  );
}
