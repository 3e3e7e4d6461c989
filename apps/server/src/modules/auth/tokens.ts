import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ID_TOKEN_TTL_S } from '@homesitter/contract';
import {
  calculateJwkThumbprint,
  createRemoteJWKSet,
  decodeJwt,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { AuthContext } from '../../platform/http/route.js';

const ALG = 'EdDSA';
/** Audience of our own ID tokens. */
export const LOCAL_AUDIENCE = 'homesitter';

export interface SigningKey {
  privateKey: Awaited<ReturnType<typeof importPKCS8>>;
  publicJwk: JWK & { kid: string };
}

/** Loads the Ed25519 signing key from `AUTH_PRIVATE_KEY`, else from `file`, else creates it there (0600). */
export async function loadSigningKey(pem: string | undefined, file: string): Promise<SigningKey> {
  let pkcs8 = pem?.replaceAll('\\n', '\n');
  if (!pkcs8 && existsSync(file)) pkcs8 = readFileSync(file, 'utf8');
  if (!pkcs8) {
    const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
    pkcs8 = await exportPKCS8(privateKey);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, pkcs8, { mode: 0o600 });
  }
  const privateKey = await importPKCS8(pkcs8, ALG, { extractable: true });
  const full = await exportJWK(privateKey);
  const publicJwk: JWK = { kty: full.kty, crv: full.crv, x: full.x };
  const kid = await calculateJwkThumbprint(publicJwk);
  return { privateKey, publicJwk: { ...publicJwk, kid, alg: ALG, use: 'sig' } };
}

export interface IdTokenSubject {
  uid: string;
  email: string;
  emailVerified: boolean;
}

export function createIdTokenSigner(key: SigningKey, issuer: string) {
  return async (subject: IdTokenSubject): Promise<string> =>
    new SignJWT({ email: subject.email, email_verified: subject.emailVerified })
      .setProtectedHeader({ alg: ALG, kid: key.publicJwk.kid, typ: 'JWT' })
      .setSubject(subject.uid)
      .setIssuer(issuer)
      .setAudience(LOCAL_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ID_TOKEN_TTL_S}s`)
      .sign(key.privateKey);
}

export interface ExternalIssuer {
  jwksUrl: string;
  issuer: string;
  audience?: string | undefined;
}

export type TokenVerifier = (token: string) => Promise<AuthContext | null>;

/**
 * Verifies ID tokens of our own provider and, when configured, of one external OIDC issuer (Firebase Auth,
 * Keycloak…). The unverified `iss` only picks which key set to check against.
 */
export async function createTokenVerifier(
  key: SigningKey,
  localIssuer: string,
  external?: ExternalIssuer,
): Promise<TokenVerifier> {
  const localKey = await importJWK(key.publicJwk, ALG);
  const remote = external ? createRemoteJWKSet(new URL(external.jwksUrl)) : undefined;

  function toContext(payload: JWTPayload, token: string, issuer: AuthContext['issuer']): AuthContext | null {
    const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : '';
    if (!payload.sub) return null;
    // When the user signed in: `auth_time` (OIDC; a refreshed token keeps it), else when the token was issued.
    const signedInAt = typeof payload.auth_time === 'number' ? payload.auth_time : payload.iat;
    return {
      subject: payload.sub,
      email,
      emailVerified: payload.email_verified === true,
      issuer,
      token,
      ...(signedInAt !== undefined ? { signedInAt } : {}),
    };
  }

  return withVerifiedTokenCache(async (token) => {
    let iss: string | undefined;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return null;
    }
    try {
      if (iss === localIssuer) {
        const { payload } = await jwtVerify(token, localKey, {
          issuer: localIssuer,
          audience: LOCAL_AUDIENCE,
          algorithms: [ALG],
          // A token that never expires is refused, whoever signed it.
          requiredClaims: ['exp'],
        });
        return toContext(payload, token, 'local');
      }
      if (remote && external && iss === external.issuer) {
        const { payload } = await jwtVerify(token, remote, {
          issuer: external.issuer,
          ...(external.audience ? { audience: external.audience } : {}),
          requiredClaims: ['exp'],
        });
        return toContext(payload, token, 'external');
      }
    } catch {
      return null;
    }
    return null;
  });
}

/** The `iat` (seconds since the epoch) of a token that has already been verified; undefined without one. */
export function tokenIssuedAt(token: string): number | undefined {
  const iat = decodeJwt(token).iat;
  return typeof iat === 'number' ? iat : undefined;
}

const TOKEN_CACHE_SIZE = 10_000;

/**
 * Remembers tokens that verified, until they expire: a client sends the same ID token for up to an hour,
 * and checking its signature again each time would be most of a request's cost. Only successes are kept,
 * keyed by the whole token, so a cached answer is exactly what verifying again would say until `exp`.
 */
export function withVerifiedTokenCache(verify: TokenVerifier, now: () => number = Date.now): TokenVerifier {
  const cache = new Map<string, { auth: AuthContext; expiresAt: number }>();
  return async (token) => {
    const hit = cache.get(token);
    if (hit) {
      if (hit.expiresAt > now()) return hit.auth;
      cache.delete(token);
    }
    const auth = await verify(token);
    if (!auth) return null;
    const exp = decodeJwt(token).exp;
    if (typeof exp === 'number') {
      if (cache.size >= TOKEN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(token, { auth, expiresAt: exp * 1000 });
    }
    return auth;
  };
}

/** An opaque secret (refresh token, mailed code) and the SHA-256 we store instead of it. */
export function newOpaqueToken(bytes = 32): { value: string; hash: string } {
  const value = randomBytes(bytes).toString('base64url');
  return { value, hash: hashOpaqueToken(value) };
}

export function hashOpaqueToken(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** How a deleted external identity is kept: a SHA-256 of its issuer and subject, never the subject itself. */
export function hashIdentity(issuer: string, subject: string): string {
  return createHash('sha256').update(`${issuer}\n${subject}`).digest('base64url');
}

/** A Firebase-style 28-character user id. */
export function newIdentityId(): string {
  return randomBytes(21).toString('base64url');
}
