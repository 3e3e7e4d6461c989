import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('sign-up gate', () => {
  it('is open by default, and an operator can close and reopen it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/signup/status' })).json()).toEqual({
      success: true,
      data: { enabled: true },
    });
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signup',
      headers: admin,
      payload: { enabled: false },
    });
    expect(off.json()).toEqual({ success: true, data: { enabled: false } });
    expect((await t.app.inject({ method: 'GET', url: '/api/signup/status' })).json().data.enabled).toBe(
      false,
    );

    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email: 'late@example.com', password: 'longenough' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.signup_disabled');
    expect(refused.json().message).toMatch(/waitlist/i);

    await t.app.inject({
      method: 'POST',
      url: '/api/admin/signup',
      headers: admin,
      payload: { enabled: true },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/signup/status' })).json().data.enabled).toBe(true);
  });

  it('starts closed when SIGNUP_ENABLED=false', async () => {
    const closed = await createTestApp({ env: { SIGNUP_ENABLED: 'false' } });
    try {
      expect(
        (await closed.app.inject({ method: 'GET', url: '/api/signup/status' })).json().data.enabled,
      ).toBe(false);
    } finally {
      await closed.close();
    }
  });

  it('refuses admin calls without the admin token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/signup', payload: { enabled: false } });
    expect(res.statusCode).toBe(403);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/admin/waitlist',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(403);
  });
});

describe('waitlist', () => {
  it('stores an email once, however often it is sent', async () => {
    for (const email of ['Wait@Example.com', 'wait@example.com']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/signup/waitlist', payload: { email } });
      expect(res.json()).toEqual({ success: true });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/waitlist', headers: admin });
    const emails = list.json().data.map((e: { email: string }) => e.email);
    expect(emails.filter((e: string) => e === 'wait@example.com')).toHaveLength(1);
  });

  it('answers 400 for a malformed email', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/signup/waitlist',
      payload: { email: 'nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: MESSAGES.joinWaitlistFailed });
    expect(res.json().details[0].message).toBe('Please enter a valid email address');
  });
});
