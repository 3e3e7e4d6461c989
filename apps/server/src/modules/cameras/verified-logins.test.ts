import { describe, expect, it } from 'vitest';
import { createVerifiedLogins } from './verified-logins.js';

function counting(result: boolean) {
  let calls = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  return {
    verify: async () => {
      calls += 1;
      await gate;
      return result;
    },
    calls: () => calls,
    release: () => release(),
  };
}

describe('verified camera logins', () => {
  it('checks a burst of the same right login once, and remembers it', async () => {
    const logins = createVerifiedLogins({ ttlMs: 60_000, max: 10 });
    const scrypt = counting(true);
    const burst = Array.from({ length: 30 }, () => logins.check('cam1', 'pw', 'hash1', scrypt.verify));
    scrypt.release();
    expect(await Promise.all(burst)).toEqual(Array(30).fill(true));
    expect(await logins.check('cam1', 'pw', 'hash1', scrypt.verify)).toBe(true);
    expect(scrypt.calls()).toBe(1);
  });

  it('never remembers a wrong login', async () => {
    const logins = createVerifiedLogins({ ttlMs: 60_000, max: 10 });
    const scrypt = counting(false);
    scrypt.release();
    expect(await logins.check('cam1', 'guess', 'hash1', scrypt.verify)).toBe(false);
    expect(await logins.check('cam1', 'guess', 'hash1', scrypt.verify)).toBe(false);
    expect(scrypt.calls()).toBe(2);
  });

  it('checks again once the password changed (another stored hash) or the entry expired', async () => {
    let clock = 0;
    const logins = createVerifiedLogins({ ttlMs: 1_000, max: 10, now: () => clock });
    const scrypt = counting(true);
    scrypt.release();
    await logins.check('cam1', 'pw', 'hash1', scrypt.verify);
    await logins.check('cam1', 'pw', 'hash2', scrypt.verify);
    expect(scrypt.calls()).toBe(2);
    clock = 999;
    await logins.check('cam1', 'pw', 'hash1', scrypt.verify);
    expect(scrypt.calls()).toBe(2);
    clock = 1_001;
    await logins.check('cam1', 'pw', 'hash1', scrypt.verify);
    expect(scrypt.calls()).toBe(3);
  });

  it('forgets the oldest login beyond its size', async () => {
    const logins = createVerifiedLogins({ ttlMs: 60_000, max: 2 });
    const scrypt = counting(true);
    scrypt.release();
    for (const user of ['a', 'b', 'c']) await logins.check(user, 'pw', 'h', scrypt.verify);
    await logins.check('a', 'pw', 'h', scrypt.verify);
    expect(scrypt.calls()).toBe(4);
    await logins.check('c', 'pw', 'h', scrypt.verify);
    expect(scrypt.calls()).toBe(4);
  });
});
