import { describe, expect, it } from 'vitest';
import { createSignInBrake } from './sign-in-brake.js';

const WINDOW = 15 * 60_000;

function brakeWithClock(options: { perAddress?: number; freeFailures?: number; maxDelayMs?: number } = {}) {
  let t = 1_000_000;
  const brake = createSignInBrake({
    perAddress: options.perAddress ?? 10,
    freeFailures: options.freeFailures ?? 10,
    windowMs: WINDOW,
    maxDelayMs: options.maxDelayMs ?? 5 * 60_000,
    now: () => t,
  });
  return { brake, pass: (ms: number) => (t += ms) };
}

describe('the sign-in brake', () => {
  it('pauses an address after its failures for one email, until the window of the first ends', () => {
    const { brake, pass } = brakeWithClock({ perAddress: 3, freeFailures: 100 });
    for (let i = 0; i < 3; i++) expect(brake.attempt('a@x.test', '10.0.0.1')).toBe(0);
    expect(brake.attempt('a@x.test', '10.0.0.1')).toBe(900);
    expect(brake.failures('a@x.test', '10.0.0.1')).toMatchObject({ failures: 3, addressPaused: true });
    // Another email from there, and this email from elsewhere, go on.
    expect(brake.attempt('b@x.test', '10.0.0.1')).toBe(0);
    expect(brake.attempt('a@x.test', '10.0.0.2')).toBe(0);
    pass(WINDOW - 1_000);
    expect(brake.attempt('a@x.test', '10.0.0.1')).toBe(1);
    pass(1_000);
    expect(brake.attempt('a@x.test', '10.0.0.1')).toBe(0);
  });

  it('slows guesses at an email from addresses that failed, with a delay doubling up to the cap', () => {
    const { brake, pass } = brakeWithClock({ freeFailures: 4, maxDelayMs: 8_000 });
    const addresses = ['10.0.0.1', '10.0.0.2'];
    for (let i = 0; i < 4; i++) expect(brake.attempt('a@x.test', addresses[i % 2]!)).toBe(0);
    expect(brake.failures('a@x.test', '10.0.0.1').slowed).toBe(true);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wait = brake.attempt('a@x.test', '10.0.0.1');
      waits.push(wait);
      expect(brake.attempt('a@x.test', '10.0.0.2')).toBe(wait);
      pass(wait * 1000);
      expect(brake.attempt('a@x.test', '10.0.0.1')).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
  });

  it('lets a clean address try at once while the email is slowed, and a right password takes its attempt back', () => {
    const { brake } = brakeWithClock({ freeFailures: 2 });
    brake.attempt('a@x.test', '10.0.0.1');
    brake.attempt('a@x.test', '10.0.0.1');
    expect(brake.attempt('a@x.test', '10.0.0.1')).toBeGreaterThan(0);
    expect(brake.attempt('a@x.test', '192.0.2.7')).toBe(0);
    brake.succeeded('a@x.test', '192.0.2.7');
    expect(brake.failures('a@x.test', '192.0.2.7')).toEqual({
      failures: 2,
      addresses: ['10.0.0.1'],
      addressPaused: false,
      slowed: true,
    });
    // Still clean: the owner signs in again at once.
    expect(brake.attempt('a@x.test', '192.0.2.7')).toBe(0);
  });

  it('counts an attempt as soon as it is let through, so parallel guesses from one address stop at the limit', () => {
    const { brake } = brakeWithClock({ perAddress: 5, freeFailures: 100 });
    const let_through = Array.from({ length: 50 }, () => brake.attempt('a@x.test', '10.0.0.1')).filter(
      (wait) => wait === 0,
    );
    expect(let_through).toHaveLength(5);
  });

  it("forgets an email's failures a window after its last one", () => {
    const { brake, pass } = brakeWithClock({ freeFailures: 2 });
    brake.attempt('a@x.test', '10.0.0.1');
    brake.attempt('a@x.test', '10.0.0.1');
    pass(WINDOW);
    expect(brake.attempt('a@x.test', '10.0.0.1')).toBe(0);
    expect(brake.failures('a@x.test', '10.0.0.1')).toMatchObject({ failures: 1, slowed: false });
  });
});
