import { describe, expect, it } from 'vitest';
import { createMediaSigner } from './media.signer.js';

const signer = createMediaSigner('test-secret', 'https://home.example');
const EXP = 2_000_000_000;
const parts = (url: string) => {
  const u = new URL(url);
  return {
    key: decodeURIComponent(u.pathname.replace(/^\/media\//, '')),
    exp: u.searchParams.get('exp') ?? undefined,
    sig: u.searchParams.get('sig') ?? undefined,
  };
};

describe('media signer', () => {
  it('signs the key and the expiry with a 128-bit HMAC in 22 URL-safe characters', () => {
    const url = signer.url('users/u1/memories/m1/p 1.jpg', EXP);
    expect(url).toMatch(
      /^https:\/\/home\.example\/media\/users\/u1\/memories\/m1\/p%201\.jpg\?exp=2000000000&sig=[\w-]{22}$/,
    );
    const { key, exp, sig } = parts(url);
    expect(key).toBe('users/u1/memories/m1/p 1.jpg');
    expect(signer.check(key, exp, sig, EXP * 1000 - 1)).toBe('valid');
  });

  it('refuses another key, another expiry, a changed or cut signature, and another secret', () => {
    const { key, exp, sig } = parts(signer.url('users/u1/a.jpg', EXP));
    const now = EXP * 1000 - 1;
    expect(signer.check('users/u1/b.jpg', exp, sig, now)).toBe('invalid');
    expect(signer.check(key, String(EXP + 1), sig, now)).toBe('invalid');
    const flipped = sig!.slice(0, -1) + (sig!.endsWith('A') ? 'B' : 'A');
    expect(signer.check(key, exp, flipped, now)).toBe('invalid');
    expect(signer.check(key, exp, sig!.slice(0, 21), now)).toBe('invalid');
    expect(signer.check(key, exp, undefined, now)).toBe('invalid');
    expect(signer.check(key, 'soon', sig, now)).toBe('invalid');
    const other = parts(
      createMediaSigner('another-secret', 'https://home.example').url('users/u1/a.jpg', EXP),
    );
    expect(signer.check(key, exp, other.sig, now)).toBe('invalid');
  });

  it('answers expired once the expiry has passed', () => {
    const { key, exp, sig } = parts(signer.url('users/u1/a.jpg', EXP));
    expect(signer.check(key, exp, sig, EXP * 1000)).toBe('expired');
  });
});
