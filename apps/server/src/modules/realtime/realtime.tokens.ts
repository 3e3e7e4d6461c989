import { REALTIME_TOKEN_TTL_S } from '@homesitter/contract';
import { importJWK, jwtVerify, SignJWT } from 'jose';
import type { SigningKey } from '../auth/tokens.js';

/** Audience of hub access tokens: an ID token is not one, and a hub token opens nothing else. */
export const REALTIME_AUDIENCE = 'homesitter-realtime';

export interface RealtimeTokens {
  /** A short-lived token that lets its holder connect to the hub as this user only. */
  issue(userId: string): Promise<string>;
  /** The user id the token was issued for, or null when it is forged, expired or not a hub token. */
  verify(token: string): Promise<string | null>;
}

/** Hub tokens are JWTs signed with the server's own key (EdDSA), audience `homesitter-realtime`, 5 minutes. */
export async function createRealtimeTokens(
  key: SigningKey,
  issuer: string,
  ttlSeconds = REALTIME_TOKEN_TTL_S,
): Promise<RealtimeTokens> {
  const publicKey = await importJWK(key.publicJwk, 'EdDSA');
  return {
    issue: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', kid: key.publicJwk.kid, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setAudience(REALTIME_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key.privateKey),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer,
          audience: REALTIME_AUDIENCE,
          algorithms: ['EdDSA'],
        });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
