import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaptureMailer } from '../../../test/capture-mailer.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { AppError } from '../../platform/errors.js';
import { createLogger } from '../../platform/logger.js';
import { createAuthRepository } from './auth.repository.js';
import { createAuthService, LOCKOUT_WINDOW_MS } from './auth.service.js';
import { createSignInBrake } from './sign-in-brake.js';

/**
 * Nobody can lock an owner out: the probe's scenario (108 wrong passwords for one email from 12 addresses in
 * 14 s) on an injected clock. The attackers' addresses stay held back, the owner's right password from an
 * address of their own is let in, and the owner is mailed once.
 */
describe('wrong passwords from many addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => t.close());

  function service() {
    const clock = { ms: Date.parse('2026-11-27T20:00:00Z') };
    const mailer = createCaptureMailer();
    const auth = createAuthService({
      repo: createAuthRepository(t.database.db),
      signIdToken: async () => 'id-token',
      mailer,
      publicUrl: 'http://homesitter.test',
      isSignupEnabled: async () => true,
      isVerificationExempt: () => false,
      signInBrake: createSignInBrake({
        perAddress: 10,
        freeFailures: 10,
        windowMs: LOCKOUT_WINDOW_MS,
        maxDelayMs: 5 * 60_000,
        now: () => clock.ms,
      }),
      log: createLogger('silent'),
      now: () => new Date(clock.ms),
    });
    return { auth, mailer, clock };
  }

  const statusOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 200,
      (err: unknown) => (err instanceof AppError ? err.status : 500),
    );

  it('keeps the attackers held back, lets the owner in from a fresh address, and mails the owner once', async () => {
    const { auth, mailer, clock } = service();
    const email = `owner-${Date.now()}@example.com`;
    const password = 'the-right-password';
    await auth.signUp({ email, password, language: 'en' });
    const attackers = Array.from({ length: 12 }, (_, i) => `203.0.113.${i + 1}`);

    const codes = new Map<number, number>();
    for (let i = 0; i < 108; i++) {
      clock.ms += 130; // 108 attempts in 14 s
      const code = await statusOf(auth.signIn(email, `guess-${i}`, attackers[i % 12]));
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    console.info(
      `[limits] 108 wrong passwords from 12 addresses in 14 s: ${JSON.stringify(Object.fromEntries(codes))}`,
    );
    // Ten free failures, then every address that failed waits; each gets no more than its first guess after.
    expect(codes.get(401)).toBeLessThanOrEqual(10 + 12);
    expect(codes.get(429)).toBeGreaterThan(80);

    // The owner, from their own address, right away: in.
    expect(await statusOf(auth.signIn(email, password, '198.51.100.7'))).toBe(200);
    // The attackers stay held back, even with the right password.
    for (const address of attackers) expect(await statusOf(auth.signIn(email, password, address))).toBe(429);
    // A minute later the delay has passed once: one guess among all of them, then held back again.
    clock.ms += 60_000;
    const later: number[] = [];
    for (const address of attackers) later.push(await statusOf(auth.signIn(email, 'guess', address)));
    expect(later.filter((code) => code === 401)).toHaveLength(1);
    expect(later.filter((code) => code === 429)).toHaveLength(11);
    // The owner again, later: in.
    expect(await statusOf(auth.signIn(email, password, '198.51.100.7'))).toBe(200);

    await auth.settled();
    const notices = mailer.sent.filter((m) => m.to === email && m.subject.includes('Failed sign-ins'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/wrong password for your Homesitter account \d+ times/);
    expect(notices[0]!.text).toContain('203.0.113.1');
    expect(notices[0]!.links).toEqual(['http://homesitter.test/forgot-password']);

    // A window later, a new attack is told again.
    clock.ms += LOCKOUT_WINDOW_MS;
    for (let i = 0; i < 12; i++) await statusOf(auth.signIn(email, `again-${i}`, '203.0.113.200'));
    await auth.settled();
    expect(mailer.sent.filter((m) => m.to === email && m.subject.includes('Failed sign-ins'))).toHaveLength(
      2,
    );
  }, 120_000);

  it("writes the notice in the owner's language, naming the first addresses and counting the rest", async () => {
    const { auth, mailer, clock } = service();
    const email = `besitzer-${Date.now()}@example.com`;
    await auth.signUp({ email, password: 'das-richtige-passwort', language: 'de' });
    for (let i = 0; i < 10; i++) {
      clock.ms += 1_000;
      await statusOf(auth.signIn(email, 'falsch', `203.0.113.${i + 1}`));
    }
    await auth.settled();
    const notice = mailer.sent.find((m) => m.to === email && m.subject.startsWith('Fehlgeschlagene'));
    expect(notice?.text).toContain('10-mal ein falsches Passwort');
    expect(notice?.text).toContain(
      'den Adressen 203.0.113.1, 203.0.113.2, 203.0.113.3, 203.0.113.4, 203.0.113.5 und 5 weiteren',
    );
  });
});
