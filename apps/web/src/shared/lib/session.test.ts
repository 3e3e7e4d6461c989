import type { AuthSession } from '@homesitter/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, REFRESH_MARGIN_MS } from './session';

function jwt(claims: Record<string, unknown>) {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  return `${b64({ alg: 'none' })}.${b64(claims)}.sig`;
}

function authSession(now: number, verified = false, n = 1, exempt = false): AuthSession {
  return {
    success: true,
    idToken: jwt({ sub: 'u', email: 'a@b.c', email_verified: verified, exp: Math.floor(now / 1000) + 3600 }),
    refreshToken: `r${n}`,
    expiresIn: 3600,
    user: { uid: 'u', email: 'a@b.c', emailVerified: verified, verificationExempt: exempt },
  };
}

afterEach(() => vi.useRealTimers());

describe('session store', () => {
  it('is signed out without stored tokens and emits loggedIn/loggedOut', async () => {
    const events: string[] = [];
    const store = createSessionStore({
      storage: localStorage,
      refresh: vi.fn(),
      revoke: vi.fn(async () => undefined),
    });
    store.on((e) => events.push(e));
    expect(store.getState().status).toBe('loading');
    await store.init();
    expect(store.getState().status).toBe('signedOut');
    store.establish(authSession(Date.now()));
    expect(store.getState().status).toBe('signedIn');
    await store.signOut();
    expect(events).toEqual(['loggedIn', 'loggedOut']);
    expect(localStorage.length).toBe(0);
  });

  it('refreshes the ID token before it expires', async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const refresh = vi.fn(async () => authSession(Date.now(), true, 2));
    const store = createSessionStore({ storage: localStorage, refresh, revoke: vi.fn() });
    store.establish(authSession(start));
    await vi.advanceTimersByTimeAsync(3600_000 - REFRESH_MARGIN_MS + 10);
    expect(refresh).toHaveBeenCalledWith('r1');
    expect(store.isVerified()).toBe(true);
  });

  it('restores a stored session and signs out when the refresh token is refused', async () => {
    const first = createSessionStore({ storage: localStorage, refresh: vi.fn(), revoke: vi.fn() });
    first.establish(authSession(Date.now() - 2 * 3600_000));
    const refused = Object.assign(new Error('no'), { status: 401 });
    const second = createSessionStore({
      storage: localStorage,
      refresh: vi.fn(async () => Promise.reject(refused)),
      revoke: vi.fn(),
    });
    await second.init();
    expect(second.getState().status).toBe('signedOut');
  });

  it('counts an account the server marks exempt as verified, and no other unverified one', () => {
    const store = createSessionStore({ storage: localStorage, refresh: vi.fn(), revoke: vi.fn() });
    store.establish(authSession(Date.now(), false, 1, true));
    expect(store.isVerified()).toBe(true);
    store.establish(authSession(Date.now(), false, 2, false));
    expect(store.isVerified()).toBe(false);
  });
});
