import type { FastifyRequest } from 'fastify';
import { commonErrors } from '../../platform/errors.js';
import type { AccessGuards, AuthContext } from '../../platform/http/route.js';
import { redactToken } from '../../platform/logger.js';
import type { TokenVerifier } from './tokens.js';

export interface GuardDeps {
  /** Checks the operator's token on admin routes. */
  admin: (req: FastifyRequest) => Promise<void>;
  verify: TokenVerifier;
  /** Addresses that may skip verification (VERIFICATION_EXEMPT_EMAILS). */
  exemptEmails: readonly string[];
  /** Our own provider's current answer, so a freshly verified user need not refresh the token first. */
  isLocalIdentityVerified: (identityId: string) => Promise<boolean>;
  /**
   * Whether the account behind a verified token is still there: a deleted account's tokens (ours or an
   * external issuer's) stay valid JWTs until they expire, and must be useless at once (identity-presence.ts).
   */
  isIdentityCurrent: (auth: AuthContext) => Promise<boolean>;
}

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** onRequest hooks per access level of the contract: public, bearer, verified, admin. */
export function createAccessGuards(deps: GuardDeps): AccessGuards {
  const exempt = new Set(deps.exemptEmails);

  async function authenticate(req: FastifyRequest): Promise<void> {
    const token = bearerToken(req);
    if (!token)
      throw commonErrors.unauthenticated('Sign in to continue: the Authorization bearer token is missing');
    const auth = await deps.verify(token);
    if (!auth || !(await deps.isIdentityCurrent(auth))) {
      req.log.info({ token: redactToken(token) }, 'rejected bearer token');
      throw commonErrors.unauthenticated('Your session is invalid or has expired. Please sign in again.');
    }
    req.auth = auth;
  }

  async function requireVerified(req: FastifyRequest): Promise<void> {
    const auth = req.auth;
    if (!auth) throw commonErrors.unauthenticated();
    if (auth.emailVerified || exempt.has(auth.email)) return;
    if (auth.issuer === 'local' && (await deps.isLocalIdentityVerified(auth.subject))) return;
    throw commonErrors.emailNotVerified();
  }

  return {
    public: [],
    bearer: [authenticate],
    verified: [authenticate, requireVerified],
    admin: [deps.admin],
  };
}
