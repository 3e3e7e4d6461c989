import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';

// An OIDC issuer of our own on 127.0.0.1, standing in for Firebase Auth or Keycloak: it serves a JWKS and
// signs RS256 tokens the way they do.
const ISSUER = 'https://securetoken.example.test/homesitter-app';
const AUDIENCE = 'homesitter-app';

let jwksServer: Server;
let t: TestApp;
let sign: (
  claims: Record<string, unknown>,
  opts?: { audience?: string; issuer?: string; noExpiry?: boolean },
) => Promise<string>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  sign = (claims, opts = {}) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(opts.issuer ?? ISSUER)
      .setAudience(opts.audience ?? AUDIENCE)
      .setIssuedAt();
    return (opts.noExpiry ? jwt : jwt.setExpirationTime('1h')).sign(privateKey);
  };
  t = await createTestApp({
    env: {
      AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`,
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: AUDIENCE,
    },
  });
});

afterAll(async () => {
  await t.close();
  await new Promise((resolve) => jwksServer.close(resolve));
});

describe('tokens from an external OIDC issuer', () => {
  it('are accepted: the profile is keyed by their sub', async () => {
    const token = await sign({ sub: 'firebase-uid-1', email: 'ext@example.com', email_verified: true });
    const headers = { authorization: `Bearer ${token}` };
    const created = await t.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({
      firebase_user_id: 'firebase-uid-1',
      firebase_email_address: 'ext@example.com',
    });
    const settings = await t.app.inject({ method: 'GET', url: '/api/users/settings', headers });
    expect(settings.statusCode).toBe(200);
  });

  it('follow their email_verified claim', async () => {
    const token = await sign({ sub: 'firebase-uid-2', email: 'ext2@example.com', email_verified: false });
    const headers = { authorization: `Bearer ${token}` };
    await t.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/settings', headers })).statusCode).toBe(403);
  });

  it('are refused with a wrong audience, an unknown issuer or no expiry', async () => {
    for (const opts of [
      { audience: 'someone-else' },
      { issuer: 'https://evil.example.test' },
      // Signed by the right issuer, but never expiring: refused.
      { noExpiry: true },
    ]) {
      const token = await sign({ sub: 'x', email: 'x@example.com', email_verified: true }, opts);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/users/profile',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('are useless once the account is deleted: the profile cannot come back through one (401)', async () => {
    const token = await sign({ sub: 'firebase-uid-gone', email: 'gone@example.com', email_verified: true });
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} })).statusCode).toBe(
      201,
    );
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users', headers })).statusCode).toBe(200);

    const recreate = await t.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} });
    expect(recreate.statusCode).toBe(401);
    expect(recreate.json()).toMatchObject({ code: 'auth.unauthenticated' });
    for (const url of ['/api/users/profile', '/api/users/settings', '/api/users/cameras'])
      expect((await t.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(401);
    // The issuer refreshes the token (a new `iat`, the same sign-in `auth_time`): still refused.
    const signedInAt = Math.floor(Date.now() / 1000) - 60;
    const refreshed = await sign({
      sub: 'firebase-uid-gone',
      email: 'gone@example.com',
      email_verified: true,
      auth_time: signedInAt,
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/users',
          headers: { authorization: `Bearer ${refreshed}` },
          payload: {},
        })
      ).statusCode,
    ).toBe(401);
    const users = await t.database.query<{ n: number }>(
      'select count(*)::int as n from users where auth_subject = $1',
      ['firebase-uid-gone'],
    );
    expect(users[0]?.n).toBe(0);
    // What is kept of it is a hash, not the issuer's user id.
    const kept = await t.database.query<{ identity_hash: string }>(
      'select identity_hash from deleted_identities',
    );
    expect(kept).toHaveLength(1);
    expect(kept[0]!.identity_hash).not.toContain('firebase-uid-gone');
  });

  it('let the user make a new account by signing in again after the deletion', async () => {
    const claims = { sub: 'firebase-uid-back', email: 'back@example.com', email_verified: true };
    const before = { authorization: `Bearer ${await sign(claims)}` };
    await t.app.inject({ method: 'POST', url: '/api/users', headers: before, payload: {} });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users', headers: before })).statusCode).toBe(
      200,
    );
    const again = {
      authorization: `Bearer ${await sign({ ...claims, auth_time: Math.floor(Date.now() / 1000) + 2 })}`,
    };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/users', headers: again, payload: {} })).statusCode,
    ).toBe(201);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/users', headers: before, payload: {} })).statusCode,
    ).toBe(401);
  });

  it('do not stop our own tokens from working', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email: 'local@example.com', password: 'longenough' },
    });
    const headers = { authorization: `Bearer ${res.json().idToken}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} })).statusCode).toBe(
      201,
    );
  });
});
