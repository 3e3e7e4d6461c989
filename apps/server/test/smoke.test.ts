import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from './app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('serves a profile to a freshly signed-up, verified user', async () => {
  const user = await signUp(t);
  const res = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ success: true, data: { firebase_email_address: user.email } });
});
