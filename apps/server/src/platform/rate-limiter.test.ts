import { describe, expect, it } from 'vitest';
import { createLoginFailures } from './rate-limiter.js';

describe('login failures', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, pass: (ms: number) => (t += ms) };
  };

  it('never holds back a right login, however many sign in from one address', () => {
    const failures = createLoginFailures({ perCredential: 10, perAddress: 100, windowMs: 60_000 });
    for (let i = 0; i < 1_000; i++) {
      expect(failures.retryAfter('10.0.0.1', 'cam')).toBe(0);
      failures.succeeded('10.0.0.1', 'cam');
    }
  });

  it('holds back a credential after its tenth failure from an address, until the window ends', () => {
    const c = clock();
    const failures = createLoginFailures({
      perCredential: 10,
      perAddress: 100,
      windowMs: 60_000,
      now: c.now,
    });
    for (let i = 0; i < 9; i++) failures.failed('10.0.0.1', 'cam');
    expect(failures.retryAfter('10.0.0.1', 'cam')).toBe(0);
    failures.failed('10.0.0.1', 'cam');
    expect(failures.retryAfter('10.0.0.1', 'cam')).toBe(60);
    expect(failures.retryAfter('10.0.0.2', 'cam')).toBe(0);
    expect(failures.retryAfter('10.0.0.1', 'other')).toBe(0);
    c.pass(60_000);
    expect(failures.retryAfter('10.0.0.1', 'cam')).toBe(0);
  });

  it('holds back an address that fails with many names', () => {
    const failures = createLoginFailures({
      perCredential: 10,
      perAddress: 100,
      windowMs: 60_000,
      now: () => 0,
    });
    for (let i = 0; i < 100; i++) failures.failed('10.0.0.1', `guess-${i}`);
    expect(failures.retryAfter('10.0.0.1', 'anyone')).toBe(60);
    expect(failures.retryAfter('10.0.0.9', 'anyone')).toBe(0);
  });
});
