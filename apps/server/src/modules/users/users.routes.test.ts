import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniqueEmail, type TestApp, type TestUser } from '../../../test/app.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { FREE_EVENTS: '42', VERIFICATION_EXEMPT_EMAILS: 'tester@example.com' } });
  user = await signUp(t);
});
afterAll(async () => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who: TestUser | null,
  payload?: unknown,
) => t.app.inject({ method, url, payload: payload as object, headers: who ? who.auth : {} });

describe('profile', () => {
  it('is created once with the product defaults (docs/product.md), and a second create returns it unchanged', async () => {
    const fresh = await signUp(t, { profile: false });
    const created = await call('POST', '/api/users', fresh, {
      first_name: 'Rose',
      phone_number: '+49 (170) 123-4567',
      timezone: 'Europe/Berlin',
    });
    expect(created.statusCode).toBe(201);
    const profile = created.json().data;
    expect(profile).toMatchObject({
      firebase_user_id: fresh.uid,
      firebase_email_address: fresh.email,
      first_name: 'Rose',
      last_name: null,
      phone_number: '+491701234567',
      timezone: 'Europe/Berlin',
      preferred_language: 'en',
      is_global_privacy_mode_enabled: false,
      is_facial_recognition_enabled: true,
      is_amnesia_mode_enabled: false,
      notifications_status: 'ALL_ENABLED',
      notification_preferences: { push_enabled: true, sms_mms_enabled: true },
      remaining_free_events: 42,
      stripe_data: null,
    });
    expect(profile.user_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(profile.created_at)).not.toBeNaN();

    const again = await call('POST', '/api/users', fresh, { first_name: 'Other' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.first_name).toBe('Rose');
  });

  it('normalises phone numbers as docs/product.md §5 says', async () => {
    const cases: [string, string][] = [
      ['(555) 123-4567', '+15551234567'],
      ['1 555 123 4567', '+15551234567'],
      ['+44 20 7946 0958', '+442079460958'],
    ];
    for (const [input, expected] of cases) {
      const res = await call('POST', '/api/users/personal-info', user, { phone_number: input });
      expect(res.json().data.phone_number).toBe(expected);
    }
  });

  it('answers 404 with its §8 text before the profile exists', async () => {
    const fresh = await signUp(t, { profile: false });
    const res = await call('GET', '/api/users/profile', fresh);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'user.not_found',
      message: MESSAGES.loadUserDataFailed,
    });
  });

  it('refuses a bad time zone, an unknown field and a short phone with 400 and the §8 text', async () => {
    for (const payload of [{ timezone: 'Mars/Base' }, { nickname: 'x' }, { phone_number: '12345' }]) {
      const res = await call('POST', '/api/users', user, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'validation_failed',
        message: MESSAGES.createUserFailed,
      });
      expect(res.json().details.length).toBeGreaterThan(0);
    }
  });
});

describe('access', () => {
  it('answers 401 without a token or with a forged one', async () => {
    expect((await call('GET', '/api/users/profile', null)).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${user.idToken.slice(0, -4)}AAAA` },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('auth.unauthenticated');
  });

  it('lets an unverified user create and read the profile, and nothing else (403)', async () => {
    const unverified = await signUp(t, { verify: false });
    expect((await call('GET', '/api/users/profile', unverified)).statusCode).toBe(200);
    const res = await call('POST', '/api/users/update-global-privacy-mode', unverified, {
      is_global_privacy_mode_enabled: true,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.email_not_verified');
  });

  it('lets an exempt address in without verification', async () => {
    const exempt = await signUp(t, { email: 'tester@example.com', verify: false });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: exempt.email, password: exempt.password },
    });
    expect(signIn.json().user).toMatchObject({ emailVerified: false, verificationExempt: true });
    const res = await call('GET', '/api/users/settings', exempt);
    expect(res.statusCode).toBe(200);
  });

  it('accepts a user right after verification, before the token is refreshed', async () => {
    const u = await signUp(t, { verify: false });
    const { codeFromMail } = await import('../../../test/capture-mailer.js');
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { code: codeFromMail(t.mailer.lastTo(u.email)) },
    });
    expect((await call('GET', '/api/users/settings', u)).statusCode).toBe(200);
  });
});

describe('switches', () => {
  it('turns global private mode on and off', async () => {
    const on = await call('POST', '/api/users/update-global-privacy-mode', user, {
      is_global_privacy_mode_enabled: true,
    });
    expect(on.json().data.is_global_privacy_mode_enabled).toBe(true);
    const bad = await call('POST', '/api/users/update-global-privacy-mode', user, {
      is_global_privacy_mode_enabled: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MESSAGES.updatePrivacyModeFailed);
    const profile = await call('GET', '/api/users/profile', user);
    expect(profile.json().data.is_global_privacy_mode_enabled).toBe(true);
    await call('POST', '/api/users/update-global-privacy-mode', user, {
      is_global_privacy_mode_enabled: false,
    });
  });

  it('reads and writes facial recognition settings, recording consent when turned on', async () => {
    expect((await call('GET', '/api/users/settings', user)).json()).toEqual({
      success: true,
      data: { is_facial_recognition_enabled: true },
    });
    const off = await call('PUT', '/api/users/settings', user, { is_facial_recognition_enabled: false });
    expect(off.json()).toEqual({
      success: true,
      message: 'Facial recognition disabled',
      data: { is_facial_recognition_enabled: false },
    });
    const on = await call('PUT', '/api/users/settings', user, { is_facial_recognition_enabled: true });
    expect(on.json().data.is_facial_recognition_enabled).toBe(true);
    const rows = await t.database.query<{ facial_recognition_consent_at: Date | null }>(
      'select facial_recognition_consent_at from users where auth_subject = $1',
      [user.uid],
    );
    expect(rows[0]?.facial_recognition_consent_at).toBeTruthy();
    const bad = await call('PUT', '/api/users/settings', user, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MESSAGES.updateFacialRecognitionFailed);
  });

  it('sets both channels with notifications on/off, and derives the status from the channels', async () => {
    const off = await call('POST', '/api/users/notifications', user, {
      notifications_status: 'ALL_DISABLED',
    });
    expect(off.json().data).toMatchObject({
      notifications_status: 'ALL_DISABLED',
      notification_preferences: { push_enabled: false, sms_mms_enabled: false },
    });
    const pushOnly = await call('POST', '/api/users/notification-preferences', user, {
      notification_preferences: { push_enabled: true, sms_mms_enabled: false },
    });
    expect(pushOnly.json().data).toMatchObject({
      notifications_status: 'ALL_ENABLED',
      notification_preferences: { push_enabled: true, sms_mms_enabled: false },
    });
    const on = await call('POST', '/api/users/notifications', user, { notifications_status: 'ALL_ENABLED' });
    expect(on.json().data.notification_preferences).toEqual({ push_enabled: true, sms_mms_enabled: true });
    const bad = await call('POST', '/api/users/notifications', user, { notifications_status: 'SOME' });
    expect(bad.json().message).toBe(MESSAGES.updateNotificationsFailed);
    const badPrefs = await call('POST', '/api/users/notification-preferences', user, {
      notification_preferences: { push_enabled: true },
    });
    expect(badPrefs.statusCode).toBe(400);
    expect(badPrefs.json().message).toBe(MESSAGES.updateNotificationPreferencesFailed);
  });

  it('updates personal info and clears a name with null', async () => {
    const res = await call('POST', '/api/users/personal-info', user, {
      first_name: '  Rose ',
      last_name: 'Tyler',
      timezone: 'America/New_York',
    });
    expect(res.json().data).toMatchObject({
      first_name: 'Rose',
      last_name: 'Tyler',
      timezone: 'America/New_York',
    });
    const cleared = await call('POST', '/api/users/personal-info', user, { last_name: null });
    expect(cleared.json().data.last_name).toBeNull();
    const empty = await call('POST', '/api/users/personal-info', user, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MESSAGES.updatePersonalInfoFailed);
  });

  it('accepts only en and de as preferred language', async () => {
    expect(
      (await call('POST', '/api/users/preferred-language', user, { preferred_language: 'de' })).json().data
        .preferred_language,
    ).toBe('de');
    const fr = await call('POST', '/api/users/preferred-language', user, { preferred_language: 'fr' });
    expect(fr.statusCode).toBe(400);
    expect(fr.json().message).toBe(MESSAGES.updatePreferredLanguageFailed);
  });

  it('turns amnesia mode on and off', async () => {
    const on = await call('POST', '/api/users/update-amnesia-mode', user, { is_amnesia_mode_enabled: true });
    expect(on.json().data.is_amnesia_mode_enabled).toBe(true);
    const bad = await call('POST', '/api/users/update-amnesia-mode', user, {});
    expect(bad.json().message).toBe(MESSAGES.updateAmnesiaModeFailed);
  });
});

describe('push tokens', () => {
  it('registers, verifies and disables a token', async () => {
    const token = { token: 'device-token-1', platform: 'ios' };
    const reg = await call('POST', '/api/users/push-notification-token', user, {
      ...token,
      is_sandbox: true,
    });
    expect(reg.json()).toEqual({
      success: true,
      data: { token: 'device-token-1', platform: 'ios', is_sandbox: true, enabled: true },
    });
    expect((await call('POST', '/api/users/verify-push-token', user, token)).json().data).toEqual({
      isValid: true,
    });
    const disabled = await call('POST', '/api/users/push-notification-token/disable', user, token);
    expect(disabled.json().data.enabled).toBe(false);
    expect((await call('POST', '/api/users/verify-push-token', user, token)).json().data).toEqual({
      isValid: false,
    });
  });

  it("answers 404 for another user's token and reports it invalid for them", async () => {
    const other = await signUp(t);
    await call('POST', '/api/users/push-notification-token', user, { token: 'mine', platform: 'android' });
    const res = await call('POST', '/api/users/push-notification-token/disable', other, {
      token: 'mine',
      platform: 'android',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('push_token.not_found');
    expect(
      (
        await call('POST', '/api/users/verify-push-token', other, { token: 'mine', platform: 'android' })
      ).json().data,
    ).toEqual({ isValid: false });
    expect(
      (
        await call('POST', '/api/users/verify-push-token', user, { token: 'mine', platform: 'android' })
      ).json().data,
    ).toEqual({ isValid: true });
  });

  it('refuses a bad platform or an empty token with 400', async () => {
    for (const payload of [
      { token: 'x', platform: 'symbian' },
      { token: ' ', platform: 'web' },
    ]) {
      expect((await call('POST', '/api/users/push-notification-token', user, payload)).statusCode).toBe(400);
    }
  });
});

describe('account deletion', () => {
  it('deletes the profile, identity, tokens and owned rows, and announces it', async () => {
    const doomed = await signUp(t);
    const announced: string[] = [];
    t.deps.events?.on('user.deleted', ({ subject }) => {
      announced.push(subject);
    });
    await call('POST', '/api/users/push-notification-token', doomed, {
      token: 'doomed-device',
      platform: 'android',
    });
    const res = await call('DELETE', '/api/users', doomed);
    expect(res.json()).toEqual({ success: true });
    expect(announced).toEqual([doomed.uid]);

    const q = async (sql: string) => (await t.database.query<{ n: number }>(sql, [doomed.uid]))[0]?.n;
    expect(await q('select count(*)::int as n from users where auth_subject = $1')).toBe(0);
    expect(await q('select count(*)::int as n from identities where id = $1')).toBe(0);
    expect(await q('select count(*)::int as n from refresh_tokens where identity_id = $1')).toBe(0);
    expect(await q('select count(*)::int as n from auth_codes where identity_id = $1')).toBe(0);
    const tokens = await t.database.query<{ n: number }>(
      "select count(*)::int as n from push_tokens where token = 'doomed-device'",
    );
    expect(tokens[0]?.n).toBe(0);

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: doomed.email, password: doomed.password },
    });
    expect(signIn.statusCode).toBe(401);
    expect((await call('GET', '/api/users/profile', user)).statusCode).toBe(200);
  });

  it('makes every token issued before it useless at once: the account cannot come back through one', async () => {
    const gone = await signUp(t);
    expect((await call('DELETE', '/api/users', gone)).statusCode).toBe(200);
    const recreate = await call('POST', '/api/users', gone, { timezone: 'Europe/Berlin' });
    expect(recreate.statusCode).toBe(401);
    expect(recreate.json()).toMatchObject({ code: 'auth.unauthenticated' });
    expect((await call('GET', '/api/users/profile', gone)).statusCode).toBe(401);
    expect((await call('GET', '/api/users/cameras', gone)).statusCode).toBe(401);
    const q = await t.database.query<{ n: number }>(
      'select count(*)::int as n from users where auth_subject = $1',
      [gone.uid],
    );
    expect(q[0]?.n).toBe(0);
  });

  it('lets the same email sign up again afterwards', async () => {
    const email = uniqueEmail('again');
    const first = await signUp(t, { email });
    await call('DELETE', '/api/users', first);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email, password: 'longenough' },
    });
    expect(res.statusCode).toBe(201);
  });
});
