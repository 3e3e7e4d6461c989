import { endpoints, type Endpoint } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';

// Every endpoint of the contract keeps its access level: no token → 401, unverified → 403.

let t: TestApp;
let unverified: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  unverified = await signUp(t, { verify: false });
});
afterAll(async () => t.close());

const all = Object.entries(endpoints) as [string, Endpoint][];
const guarded = all.filter(([, e]) => e.access === 'bearer' || e.access === 'verified');
const verifiedOnly = all.filter(([, e]) => e.access === 'verified');

describe('access levels', () => {
  it.each(guarded)('%s answers 401 without a bearer token', async (_name, e) => {
    const res = await t.app.inject({
      method: e.method,
      url: e.path,
      payload: e.method === 'GET' ? undefined : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'auth.unauthenticated' });
  });

  it.each(verifiedOnly)('%s answers 403 to an unverified user', async (_name, e) => {
    const res = await t.app.inject({
      method: e.method,
      url: e.path,
      headers: unverified.auth,
      payload: e.method === 'GET' ? undefined : {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.email_not_verified');
  });

  it.each(['/api/stripe/no-such-call', '/api/users/no-such-call'])(
    '%s needs a bearer token before it says anything else',
    async (url) => {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      const known = await t.app.inject({ method: 'GET', url, headers: unverified.auth });
      expect(known.statusCode).toBe(404);
    },
  );
});
