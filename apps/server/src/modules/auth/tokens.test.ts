import { describe, expect, it, vi } from 'vitest';
import type { AuthContext } from '../../platform/http/route.js';
import { withVerifiedTokenCache } from './tokens.js';

function fakeToken(exp: number): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'EdDSA' })}.${b64({ sub: 'u1', exp })}.sig`;
}

const auth: AuthContext = { subject: 'u1', email: 'a@b.co', emailVerified: true, issuer: 'local', token: '' };

describe('verified token cache', () => {
  it('verifies a token once and answers from memory until it expires', async () => {
    let now = 1_000_000;
    const verify = vi.fn(async () => auth);
    const cached = withVerifiedTokenCache(verify, () => now);
    const token = fakeToken(now / 1000 + 60);
    expect(await cached(token)).toBe(auth);
    expect(await cached(token)).toBe(auth);
    expect(verify).toHaveBeenCalledTimes(1);
    now += 61_000;
    await cached(token);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('never caches a refusal', async () => {
    const verify = vi.fn(async () => null);
    const cached = withVerifiedTokenCache(verify);
    const token = fakeToken(Date.now() / 1000 + 60);
    expect(await cached(token)).toBeNull();
    expect(await cached(token)).toBeNull();
    expect(verify).toHaveBeenCalledTimes(2);
  });
});
