import { describe, expect, it } from 'vitest';
import { createEventBus } from './events.js';
import { createLogger } from './logger.js';
import { createReadCache, createReadCaches, createUserIdIndex } from './read-cache.js';

/** A load that answers `value` when released, and counts how often it ran. */
function gate<V>(value: V) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const load = {
    runs: 0,
    release,
    fn: async () => {
      load.runs += 1;
      await released;
      return { value };
    },
  };
  return load;
}

function counting<V>(value: () => V, until?: () => number) {
  const load = {
    runs: 0,
    fn: async () => {
      load.runs += 1;
      return { value: value(), ...(until ? { until: until() } : {}) };
    },
  };
  return load;
}

describe('read cache', () => {
  it('answers a second read from the cache, per user and key', async () => {
    const cache = createReadCache<string>({ enabled: true, ttlMs: 60_000 });
    const load = counting(() => 'list');
    expect(await cache.get('u1', 'a', load.fn)).toBe('list');
    expect(await cache.get('u1', 'a', load.fn)).toBe('list');
    expect(load.runs).toBe(1);
    await cache.get('u1', 'b', load.fn);
    await cache.get('u2', 'a', load.fn);
    expect(load.runs).toBe(3);
  });

  it('disabled, loads on every read and keeps nothing', async () => {
    const cache = createReadCache<number>({ enabled: false, ttlMs: 60_000 });
    let n = 0;
    const load = counting(() => ++n);
    expect(await cache.get('u1', 'a', load.fn)).toBe(1);
    expect(await cache.get('u1', 'a', load.fn)).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('loads again once the user is invalidated, and only that user', async () => {
    const cache = createReadCache<number>({ enabled: true, ttlMs: 60_000 });
    let n = 0;
    const load = counting(() => ++n);
    await cache.get('u1', 'a', load.fn);
    await cache.get('u1', 'b', load.fn);
    await cache.get('u2', 'a', load.fn);
    cache.invalidate('u1');
    expect(await cache.get('u1', 'a', load.fn)).toBe(4);
    expect(await cache.get('u1', 'b', load.fn)).toBe(5);
    expect(await cache.get('u2', 'a', load.fn)).toBe(3);
  });

  it('serves an entry until the time its load gave, and never past the cache lifetime', async () => {
    let clock = 1_000;
    const cache = createReadCache<number>({ enabled: true, ttlMs: 500, now: () => clock });
    let n = 0;
    const soon = counting(
      () => ++n,
      () => clock + 100,
    );
    await cache.get('u1', 'soon', soon.fn);
    clock += 99;
    await cache.get('u1', 'soon', soon.fn);
    expect(soon.runs).toBe(1);
    clock += 1;
    await cache.get('u1', 'soon', soon.fn);
    expect(soon.runs).toBe(2);

    const late = counting(
      () => ++n,
      () => clock + 10_000,
    );
    await cache.get('u1', 'late', late.fn);
    clock += 499;
    await cache.get('u1', 'late', late.fn);
    expect(late.runs).toBe(1);
    clock += 1;
    await cache.get('u1', 'late', late.fn);
    expect(late.runs).toBe(2);
  });

  it('does not keep an answer that is already out of date when its load returns', async () => {
    const clock = 1_000;
    const cache = createReadCache<number>({ enabled: true, ttlMs: 500, now: () => clock });
    const expired = counting(
      () => 1,
      () => clock,
    );
    await cache.get('u1', 'a', expired.fn);
    await cache.get('u1', 'a', expired.fn);
    expect(expired.runs).toBe(2);
  });

  it('lets concurrent readers of a cold entry share one load', async () => {
    const cache = createReadCache<string>({ enabled: true, ttlMs: 60_000 });
    const load = gate('list');
    const reads = Promise.all([1, 2, 3].map(() => cache.get('u1', 'a', load.fn)));
    load.release();
    expect(await reads).toEqual(['list', 'list', 'list']);
    expect(load.runs).toBe(1);
  });

  it('does not keep a load that ran across a write, and later readers do not join it', async () => {
    const cache = createReadCache<string>({ enabled: true, ttlMs: 60_000 });
    const before = gate('before the write');
    const first = cache.get('u1', 'a', before.fn);
    // The write commits and invalidates while the first load may already have read the old rows.
    cache.invalidate('u1');
    const after = gate('after the write');
    const second = cache.get('u1', 'a', after.fn);
    before.release();
    after.release();
    expect(await first).toBe('before the write');
    expect(await second).toBe('after the write');
    const third = counting(() => 'unused');
    expect(await cache.get('u1', 'a', third.fn)).toBe('after the write');
    expect(third.runs).toBe(0);
  });

  it('keeps no failed load, and the next reader tries again', async () => {
    const cache = createReadCache<string>({ enabled: true, ttlMs: 60_000 });
    await expect(
      cache.get('u1', 'a', async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
    expect(await cache.get('u1', 'a', async () => ({ value: 'back' }))).toBe('back');
  });

  it('keeps at most maxUsers users, dropping the least recently read', async () => {
    const cache = createReadCache<string>({ enabled: true, ttlMs: 60_000, maxUsers: 2 });
    const load = counting(() => 'x');
    await cache.get('u1', 'a', load.fn);
    await cache.get('u2', 'a', load.fn);
    await cache.get('u1', 'a', load.fn); // u1 is now the most recent
    await cache.get('u3', 'a', load.fn); // u2 goes
    expect(cache.size).toBe(2);
    expect(load.runs).toBe(3);
    await cache.get('u1', 'a', load.fn);
    expect(load.runs).toBe(3);
    await cache.get('u2', 'a', load.fn);
    expect(load.runs).toBe(4);
  });

  it('keeps at most maxWeight in all, dropping the least recently read, and never a value heavier than that', async () => {
    const cache = createReadCache<string>({
      enabled: true,
      ttlMs: 60_000,
      weigh: (value) => value.length,
      maxWeight: 10,
    });
    const load = (value: string) => async () => ({ value });
    await cache.get('u1', 'a', load('aaaaaa'));
    await cache.get('u2', 'a', load('bbbb'));
    expect(cache.size).toBe(2);
    await cache.get('u3', 'a', load('cccc')); // 14 in all: u1 goes
    expect(cache.size).toBe(2);
    let reloaded = false;
    await cache.get('u1', 'a', async () => ((reloaded = true), { value: 'aaaaaa' }));
    expect(reloaded).toBe(true);
    cache.invalidate('u1');
    cache.invalidate('u2');
    cache.invalidate('u3');
    await cache.get('u4', 'a', load('x'.repeat(11)));
    expect(cache.size).toBe(0);
  });
});

describe('user id index', () => {
  it('remembers found users only', async () => {
    const asked: string[] = [];
    const index = createUserIdIndex({
      enabled: true,
      lookup: async (subject) => {
        asked.push(subject);
        return subject === 'known' ? 'user-1' : undefined;
      },
    });
    expect(await index.userIdOf('known')).toBe('user-1');
    expect(await index.userIdOf('known')).toBe('user-1');
    expect(await index.userIdOf('nobody')).toBeUndefined();
    expect(await index.userIdOf('nobody')).toBeUndefined();
    expect(asked).toEqual(['known', 'nobody', 'nobody']);
  });
});

describe('read caches of a server', () => {
  it('forget a deleted user: their id and every cached value', async () => {
    const events = createEventBus(createLogger('silent'));
    let id = 'old-id';
    const caches = createReadCaches({ enabled: true, events, lookupUserId: async () => id });
    const lists = caches.create<string>({ ttlMs: 60_000 });
    const pages = caches.create<string>({ ttlMs: 60_000 });
    expect(await caches.userIds.userIdOf('subject')).toBe('old-id');
    await lists.get('old-id', 'a', async () => ({ value: 'cameras' }));
    await pages.get('old-id', 'a', async () => ({ value: 'messages' }));

    await events.emit('user.deleted', { userId: 'old-id', subject: 'subject' });
    id = 'new-id';
    expect(await caches.userIds.userIdOf('subject')).toBe('new-id');
    expect(lists.size + pages.size).toBe(0);
  });
});
