import { describe, expect, it, vi } from 'vitest';
import { createIdentityPresence } from './identity-presence.js';

describe('identity presence', () => {
  it('remembers an identity that exists for the TTL, asks again after, and forgets one deleted here', async () => {
    let clock = 0;
    const store = new Set(['a']);
    const exists = vi.fn(async (id: string) => store.has(id));
    const presence = createIdentityPresence({ exists, ttlMs: 1_000, now: () => clock });

    expect(await presence.exists('a')).toBe(true);
    expect(await presence.exists('a')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);

    store.delete('a');
    presence.forget('a');
    expect(await presence.exists('a')).toBe(false);
    // An absent identity is never remembered as present.
    expect(await presence.exists('a')).toBe(false);
    expect(exists).toHaveBeenCalledTimes(3);

    store.add('b');
    expect(await presence.exists('b')).toBe(true);
    store.delete('b');
    clock = 1_001;
    expect(await presence.exists('b')).toBe(false);
  });
});
