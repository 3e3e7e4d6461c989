import { describe, expect, it, vi } from 'vitest';
import { createIdentityPresence } from './identity-presence.js';

const local = (subject: string) => ({ issuer: 'local' as const, subject });
const external = (subject: string, signedInAt?: number) => ({
  issuer: 'external' as const,
  subject,
  ...(signedInAt !== undefined ? { signedInAt } : {}),
});

describe('identity presence', () => {
  it('remembers an identity that exists for the TTL, asks again after, and forgets one deleted here', async () => {
    let clock = 0;
    const store = new Set(['a']);
    const exists = vi.fn(async (id: string) => store.has(id));
    const presence = createIdentityPresence({
      exists,
      deletedAt: async () => undefined,
      ttlMs: 1_000,
      now: () => clock,
    });

    expect(await presence.isCurrent(local('a'))).toBe(true);
    expect(await presence.isCurrent(local('a'))).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);

    store.delete('a');
    presence.forget('a');
    expect(await presence.isCurrent(local('a'))).toBe(false);
    // An absent identity is never remembered as present.
    expect(await presence.isCurrent(local('a'))).toBe(false);
    expect(exists).toHaveBeenCalledTimes(3);

    store.add('b');
    expect(await presence.isCurrent(local('b'))).toBe(true);
    store.delete('b');
    clock = 1_001;
    expect(await presence.isCurrent(local('b'))).toBe(false);
  });

  it("refuses an external issuer's token from a sign-in before the account's deletion, not one after", async () => {
    let clock = 0;
    const deleted = new Map<string, Date>();
    const deletedAt = vi.fn(async (subject: string) => deleted.get(subject));
    const presence = createIdentityPresence({
      exists: async () => false,
      deletedAt,
      ttlMs: 60_000,
      now: () => clock,
    });

    expect(await presence.isCurrent(external('ext', 1_000))).toBe(true);
    // Deleted at 2,000 s: the other instances hear it (`identity.revoked`) and forget what they knew.
    deleted.set('ext', new Date(2_000_000));
    presence.forget('ext');
    expect(await presence.isCurrent(external('ext', 1_000))).toBe(false);
    expect(await presence.isCurrent(external('ext', 2_000))).toBe(false);
    expect(await presence.isCurrent(external('ext'))).toBe(false);
    // The user signed in again afterwards: that session may make a new account.
    expect(await presence.isCurrent(external('ext', 2_001))).toBe(true);
    // All of it answered from one lookup after the deletion, remembered for the TTL.
    expect(deletedAt).toHaveBeenCalledTimes(2);
    clock = 60_001;
    await presence.isCurrent(external('ext', 1_000));
    expect(deletedAt).toHaveBeenCalledTimes(3);
  });

  it('without the word of the deletion, another instance refuses the tokens once its answer expires', async () => {
    let clock = 0;
    const deletion: { at?: Date } = {};
    const presence = createIdentityPresence({
      exists: async () => false,
      deletedAt: async () => deletion.at,
      ttlMs: 60_000,
      now: () => clock,
    });
    expect(await presence.isCurrent(external('x', 10))).toBe(true);
    deletion.at = new Date(20_000);
    expect(await presence.isCurrent(external('x', 10))).toBe(true);
    clock = 60_001;
    expect(await presence.isCurrent(external('x', 10))).toBe(false);
  });
});
