import { MESSAGES } from '@homesitter/contract';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail } from '../../../test/capture-mailer.js';
import { createTestApp, signUp, uniqueEmail, type TestApp } from '../../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('sign-up', () => {
  it('creates the account, answers with a session and mails a verification link', async () => {
    const email = uniqueEmail('signup');
    const res = await post('/api/auth/sign-up', { email: email.toUpperCase(), password: 'longenough' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, expiresIn: 3600, user: { email, emailVerified: false } });
    expect(body.idToken.split('.')).toHaveLength(3);
    expect(body.refreshToken.length).toBeGreaterThan(30);
    const mail = t.mailer.lastTo(email);
    expect(mail?.links?.[0]).toMatch(/^http:\/\/homesitter\.test\/verify-email\?code=/);
    expect(mail?.text).toContain(mail?.links?.[0]);
    expect(mail?.html).toContain('<a href=');
  });

  it('writes the mail in German when the user asks for German', async () => {
    const email = uniqueEmail('de');
    await post(
      '/api/auth/sign-up',
      { email, password: 'longenough' },
      { 'accept-language': 'de-DE,de;q=0.9' },
    );
    expect(t.mailer.lastTo(email)?.subject).toBe('Bestätige deine E-Mail-Adresse für Homesitter');
  });

  it('refuses an existing email with 409', async () => {
    const user = await signUp(t, { verify: false, profile: false });
    const res = await post('/api/auth/sign-up', { email: user.email, password: 'another-password' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'auth.email_taken' });
  });

  it.each([
    [{ email: 'x@example.com', password: 'short' }, 'Password must be at least 8 characters'],
    [{ email: 'not-an-email', password: 'longenough' }, 'Please enter a valid email address'],
    [{ password: 'longenough' }, 'email'],
    [{ email: 'y@example.com', password: 'longenough', admin: true }, 'admin'],
    [
      { email: 'z@example.com', password: 'longenough', phone: '123' },
      'Phone number must have 10 to 15 digits',
    ],
  ])('answers 400 with a clear message for %j', async (payload, text) => {
    const res = await post('/api/auth/sign-up', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'validation_failed' });
    expect(res.json().message).toContain(text);
  });
});

describe('sign-in', () => {
  it('answers a session for the right password', async () => {
    const user = await signUp(t, { profile: false });
    const res = await post('/api/auth/sign-in', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, user: { uid: user.uid, emailVerified: true } });
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const user = await signUp(t, { verify: false, profile: false });
    const wrong = await post('/api/auth/sign-in', { email: user.email, password: 'wrong password' });
    const unknown = await post('/api/auth/sign-in', { email: uniqueEmail('nobody'), password: 'whatever1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe(MESSAGES.authenticationFailed);
  });

  it('limits attempts per email and per IP with 429', async () => {
    const limited = await createTestApp({ limits: { authPerIpPerMinute: 6, signInPerEmail: 3 } });
    try {
      const email = uniqueEmail('limited');
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          payload: { email, password: 'wrong-password' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429]);
      const otherEmail = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: uniqueEmail('other'), password: 'wrong-password' },
      });
      expect(otherEmail.statusCode).toBe(401);
      const ipCodes: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          payload: { email: uniqueEmail('ip'), password: 'wrong-password' },
        });
        ipCodes.push(res.statusCode);
      }
      expect(ipCodes).toContain(429);
      const last = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: uniqueEmail('ip'), password: 'wrong-password' },
      });
      expect(last.json()).toMatchObject({ success: false, code: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('wrong passwords', () => {
  it('pause the address they come from, not the owner elsewhere, and tell the owner by mail', async () => {
    const limited = await createTestApp({ limits: { authPerIpPerMinute: 1_000, signInPerEmail: 3 } });
    try {
      const owner = await signUp(limited);
      const attempt = (password: string, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          payload: { email: owner.email, password },
          remoteAddress,
        });
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await attempt('wrong-password', '203.0.113.9')).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
      // The owner, elsewhere, signs in as usual.
      expect((await attempt(owner.password, '198.51.100.7')).statusCode).toBe(200);

      await limited.modules.auth.resetsSettled();
      const notices = limited.mailer.sent.filter((m) => m.subject.includes('Failed sign-ins'));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ to: owner.email, text: expect.stringContaining('203.0.113.9') });
    } finally {
      await limited.close();
    }
  });
});

describe('the owner cannot be locked out', () => {
  it('lets the right password in from a clean address after 108 wrong ones from 12 addresses, mailing once', async () => {
    const limited = await createTestApp({ limits: { authPerIpPerMinute: 1_000, signInPerEmail: 10 } });
    try {
      const owner = await signUp(limited);
      const attempt = (password: string, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          payload: { email: owner.email, password },
          remoteAddress,
        });
      const codes: number[] = [];
      for (let i = 0; i < 108; i++)
        codes.push((await attempt(`guess-${i}`, `203.0.113.${(i % 12) + 1}`)).statusCode);
      expect(new Set(codes)).toEqual(new Set([401, 429]));
      const res = await attempt(owner.password, '198.51.100.7');
      expect(res.statusCode, res.body).toBe(200);
      await limited.modules.auth.resetsSettled();
      expect(
        limited.mailer.sent.filter((m) => m.to === owner.email && m.subject.includes('Failed sign-ins')),
      ).toHaveLength(1);
    } finally {
      await limited.close();
    }
  }, 120_000);
});

describe('tokens', () => {
  it('signs ID tokens verifiable with the published JWKS, with sub, email and email_verified', async () => {
    const user = await signUp(t, { profile: false });
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload, protectedHeader } = await jwtVerify(user.idToken, createLocalJWKSet(jwks));
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ sub: user.uid, email: user.email, email_verified: true });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it('rotates the refresh token, and a reused one revokes the whole family', async () => {
    const user = await signUp(t, { profile: false });
    const first = await post('/api/auth/token', { refreshToken: user.refreshToken });
    expect(first.statusCode).toBe(200);
    const rotated = first.json().refreshToken;
    expect(rotated).not.toBe(user.refreshToken);

    const reused = await post('/api/auth/token', { refreshToken: user.refreshToken });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('auth.refresh_token_reused');

    const afterReuse = await post('/api/auth/token', { refreshToken: rotated });
    expect(afterReuse.statusCode).toBe(401);
  });

  it('refuses an unknown refresh token with 401', async () => {
    const res = await post('/api/auth/token', { refreshToken: 'nope' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.refresh_token_invalid');
  });

  it('signs out by revoking the refresh token', async () => {
    const user = await signUp(t, { profile: false });
    expect((await post('/api/auth/sign-out', { refreshToken: user.refreshToken })).statusCode).toBe(200);
    expect((await post('/api/auth/token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
  });

  it('stores refresh tokens hashed, never as sent', async () => {
    const user = await signUp(t, { profile: false });
    const rows = await t.database.query<{ token_hash: string }>('select token_hash from refresh_tokens');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(user.refreshToken);
  });
});

describe('email verification', () => {
  it('marks the email verified with the mailed code, once', async () => {
    const user = await signUp(t, { verify: false, profile: false });
    const code = codeFromMail(t.mailer.lastTo(user.email));
    expect((await post('/api/auth/verify-email', { code })).json()).toEqual({
      success: true,
      data: { emailVerified: true },
    });
    const again = await post('/api/auth/verify-email', { code });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('auth.code_invalid');
    const refreshed = await post('/api/auth/token', { refreshToken: user.refreshToken });
    expect(refreshed.json().user.emailVerified).toBe(true);
  });

  it('resends at most once a minute, saying how many seconds are left', async () => {
    const user = await signUp(t, { verify: false, profile: false });
    const headers = { authorization: `Bearer ${user.idToken}` };
    const res = await post('/api/auth/send-verification-email', undefined, headers);
    expect(res.statusCode).toBe(429);
    const body = res.json();
    expect(body.code).toBe('auth.resend_too_soon');
    expect(body.retryAfterSeconds).toBeGreaterThan(50);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(body.message).toBe(
      `Please wait ${body.retryAfterSeconds} seconds before requesting another email.`,
    );
    expect(res.headers['retry-after']).toBe(String(body.retryAfterSeconds));
  });

  it('resends after the minute has passed', async () => {
    const user = await signUp(t, { verify: false, profile: false });
    await t.database.query(
      `update identities set verification_sent_at = now() - interval '61 seconds' where id = $1`,
      [user.uid],
    );
    const before = t.mailer.sent.length;
    const res = await post('/api/auth/send-verification-email', undefined, {
      authorization: `Bearer ${user.idToken}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { sent: true, retryAfterSeconds: 60 } });
    expect(t.mailer.sent.length).toBe(before + 1);
  });

  it('refuses an expired code', async () => {
    const user = await signUp(t, { verify: false, profile: false });
    const code = codeFromMail(t.mailer.lastTo(user.email));
    await t.database.query(
      `update auth_codes set expires_at = now() - interval '1 second' where identity_id = $1`,
      [user.uid],
    );
    expect((await post('/api/auth/verify-email', { code })).statusCode).toBe(400);
  });

  it('needs a bearer token to resend', async () => {
    expect((await post('/api/auth/send-verification-email')).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('answers 200 for unknown emails too, and mails nothing then', async () => {
    const before = t.mailer.sent.length;
    const res = await post('/api/auth/forgot-password', { email: uniqueEmail('ghost') });
    expect(res.statusCode).toBe(200);
    await t.modules.auth.resetsSettled();
    expect(t.mailer.sent.length).toBe(before);
  });

  it('answers before it looks the email up, so a known and an unknown email take the same time', async () => {
    const user = await signUp(t, { profile: false });
    // The mail cannot go out until the answer is in: had the call waited for its work, it would hang here.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const send = t.mailer.send.bind(t.mailer);
    t.mailer.send = async (mail) => {
      await gate;
      return send(mail);
    };
    try {
      const known = await post('/api/auth/forgot-password', { email: user.email });
      const unknown = await post('/api/auth/forgot-password', { email: uniqueEmail('ghost') });
      expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
      release();
      await t.modules.auth.resetsSettled();
      expect(t.mailer.lastTo(user.email)?.links?.[0]).toMatch(/\/forgot-password\?code=/);
    } finally {
      t.mailer.send = send;
    }
  });

  it('sets the new password with the mailed code and signs out every session', async () => {
    const user = await signUp(t, { profile: false });
    await post('/api/auth/forgot-password', { email: user.email });
    await t.modules.auth.resetsSettled();
    const mail = t.mailer.lastTo(user.email);
    expect(mail?.links?.[0]).toMatch(/\/forgot-password\?code=/);
    const code = codeFromMail(mail);

    const res = await post('/api/auth/reset-password', { code, password: 'brand new password' });
    expect(res.statusCode).toBe(200);
    expect((await post('/api/auth/token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
    expect((await post('/api/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/api/auth/sign-in', { email: user.email, password: 'brand new password' })).statusCode,
    ).toBe(200);

    const reused = await post('/api/auth/reset-password', { code, password: 'yet another one' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(MESSAGES.resetPasswordFailed);
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (user: { auth: Record<string, string> }, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: user.auth,
      payload: body as object,
    });

  it('refuses a wrong current password or a short new one and changes nothing', async () => {
    const user = await signUp(t, { profile: false });
    const wrong = await change(user, {
      current_password: 'not my password',
      new_password: 'brand new password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(MESSAGES.currentPasswordWrong);
    const short = await change(user, { current_password: user.password, new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(JSON.stringify(short.json())).toMatch(/at least 8 characters/);
    const missing = await change(user, { new_password: 'brand new password' });
    expect(missing.statusCode).toBe(400);
    expect((await post('/api/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(
      200,
    );
    expect((await post('/api/auth/token', { refreshToken: user.refreshToken })).statusCode).toBe(200);
  });

  it('sets the new password, signs out every other session and answers a new one', async () => {
    const user = await signUp(t, { profile: false });
    const res = await change(user, { current_password: user.password, new_password: 'brand new password' });
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session.idToken).toEqual(expect.any(String));
    expect((await post('/api/auth/token', { refreshToken: user.refreshToken })).statusCode).toBe(401);
    expect((await post('/api/auth/token', { refreshToken: session.refreshToken })).statusCode).toBe(200);
    expect((await post('/api/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/api/auth/sign-in', { email: user.email, password: 'brand new password' })).statusCode,
    ).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { current_password: 'x', new_password: 'brand new password' },
    });
    expect(res.statusCode).toBe(401);
  });
});
