import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../../test/app.js';
import { createTestDatabase } from '../../../test/database.js';
import { createLinkedFanouts } from '../../../test/linked-fanout.js';
import type { Database } from '../../platform/db/client.js';
import { loadSigningKey } from './tokens.js';

// Two server instances on one database, their fan-outs linked as Redis links them: an account deleted through
// instance A is refused by instance B at once, though B had just accepted its token (and remembers that for
// a minute).
const ISSUER = 'https://securetoken.example.test/two-instances';
const AUDIENCE = 'two-instances';

let jwksServer: Server;
let database: Database;
let a: TestApp;
let b: TestApp;
let sign: (sub: string) => Promise<string>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  sign = (sub) =>
    new SignJWT({ email: `${sub}@example.com`, email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  const env = {
    AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`,
    AUTH_ISSUER: ISSUER,
    AUTH_AUDIENCE: AUDIENCE,
  };
  database = await createTestDatabase();
  const signingKey = await loadSigningKey(undefined, join(mkdtempSync(join(tmpdir(), 'hs-key-')), 'key.pem'));
  const [fanoutA, fanoutB] = createLinkedFanouts(2);
  a = await createTestApp({
    env,
    database,
    signingKey,
    fanout: fanoutA!,
    chatAnswers: false,
    analysis: false,
  });
  b = await createTestApp({
    env,
    database,
    signingKey,
    fanout: fanoutB!,
    chatAnswers: false,
    analysis: false,
  });
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.close();
  await new Promise((resolve) => jwksServer.close(resolve));
});

describe('an account deleted on one instance', () => {
  it("is refused by another instance at once, with our own provider's token", async () => {
    const user = await signUp(a);
    // B accepts the token, and remembers that the identity exists.
    expect(
      (await b.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth })).statusCode,
    ).toBe(200);
    expect((await a.app.inject({ method: 'DELETE', url: '/api/users', headers: user.auth })).statusCode).toBe(
      200,
    );
    const recreate = await b.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: user.auth,
      payload: {},
    });
    expect(recreate.statusCode).toBe(401);
    expect(recreate.json()).toMatchObject({ code: 'auth.unauthenticated' });
    expect(
      (await b.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth })).statusCode,
    ).toBe(401);
  });

  it("is refused by another instance at once, with an external issuer's token", async () => {
    const headers = { authorization: `Bearer ${await sign('ext-two')}` };
    expect((await a.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} })).statusCode).toBe(
      201,
    );
    expect((await b.app.inject({ method: 'GET', url: '/api/users/settings', headers })).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'DELETE', url: '/api/users', headers })).statusCode).toBe(200);
    expect((await b.app.inject({ method: 'POST', url: '/api/users', headers, payload: {} })).statusCode).toBe(
      401,
    );
    expect((await b.app.inject({ method: 'GET', url: '/api/users/settings', headers })).statusCode).toBe(401);
    const rows = await database.query<{ n: number }>(
      'select count(*)::int as n from users where auth_subject = $1',
      ['ext-two'],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
