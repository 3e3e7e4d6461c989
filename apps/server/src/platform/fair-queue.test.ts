import { describe, expect, it } from 'vitest';
import { createFairQueue } from './fair-queue.js';

/** Queues jobs and records the order they are let in; each job holds its place until released by hand. */
function harness(limits: { perKey: number; total: number }) {
  const queue = createFairQueue(limits);
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const submit = (key: string, name: string) =>
    queue.acquire(key).then((release) => {
      started.push(name);
      releases.set(name, release);
    });
  /** Lets the promise callbacks of the grants run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (name: string) => {
    releases.get(name)!();
    await settle();
  };
  return { queue, started, submit, settle, finish };
}

describe('the fair queue for heavy work', () => {
  it("lets another user's job go before the rest of one user's burst", async () => {
    const h = harness({ perKey: 1, total: 1 });
    for (let i = 1; i <= 4; i++) void h.submit('alice', `alice-${i}`);
    void h.submit('bob', 'bob-1');
    void h.submit('carol', 'carol-1');
    await h.settle();
    expect(h.started).toEqual(['alice-1']);
    await h.finish('alice-1');
    await h.finish('bob-1');
    await h.finish('carol-1');
    await h.finish('alice-2');
    await h.finish('alice-3');
    expect(h.started).toEqual(['alice-1', 'bob-1', 'carol-1', 'alice-2', 'alice-3', 'alice-4']);
  });

  it('keeps each user to their own limit while others use the free places', async () => {
    const h = harness({ perKey: 2, total: 3 });
    for (let i = 1; i <= 4; i++) void h.submit('alice', `alice-${i}`);
    void h.submit('bob', 'bob-1');
    void h.submit('bob', 'bob-2');
    await h.settle();
    // Alice holds her two places, Bob gets the third; the rest wait.
    expect(h.started).toEqual(['alice-1', 'alice-2', 'bob-1']);
    expect(h.queue.stats()).toEqual({ running: 3, waiting: 3 });
    await h.finish('alice-1');
    expect(h.started.at(-1)).toBe('alice-3');
    // Bob's second job waits only for a free place, not for Alice's queue.
    await h.finish('alice-2');
    expect(h.started.at(-1)).toBe('bob-2');
    await h.finish('bob-1');
    expect(h.started.at(-1)).toBe('alice-4');
  });

  it('serves one user in arrival order', async () => {
    const h = harness({ perKey: 1, total: 4 });
    for (let i = 1; i <= 3; i++) void h.submit('alice', `alice-${i}`);
    await h.settle();
    await h.finish('alice-1');
    await h.finish('alice-2');
    expect(h.started).toEqual(['alice-1', 'alice-2', 'alice-3']);
  });

  it('gives a place back once, however often release is called', async () => {
    const h = harness({ perKey: 1, total: 1 });
    const first = await h.queue.acquire('alice');
    void h.submit('bob', 'bob-1');
    void h.submit('carol', 'carol-1');
    first();
    first();
    await h.settle();
    expect(h.started).toEqual(['bob-1']);
    expect(h.queue.stats()).toEqual({ running: 1, waiting: 1 });
  });
});
