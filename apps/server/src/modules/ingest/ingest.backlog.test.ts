import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBacklogGate } from './ingest.backlog.js';

/** Whether the promise has settled by now (after pending microtasks). */
async function isDone(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('the backlog between receiving and processing uploads', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('lets uploads through at once while fewer than the limit wait for processing', async () => {
    const gate = createBacklogGate({ limit: 3 });
    await gate.admit(['a']);
    await gate.admit(['b', 'c']);
    expect(gate.size()).toBe(3);
  });

  it('holds the next commit until processing is done with an upload, oldest waiter first', async () => {
    const gate = createBacklogGate({ limit: 2 });
    await gate.admit(['a', 'b']);
    const first = gate.admit(['c']);
    const second = gate.admit(['d']);
    expect(await isDone(first)).toBe(false);
    gate.settled('a');
    expect(await isDone(first)).toBe(true);
    expect(await isDone(second)).toBe(false);
    gate.settled('unknown');
    expect(await isDone(second)).toBe(false);
    gate.settled('b');
    expect(await isDone(second)).toBe(true);
    expect(gate.size()).toBe(2);
  });

  it('never holds an upload longer than the longest wait, even when processing is stuck', async () => {
    const gate = createBacklogGate({ limit: 1, maxWaitMs: 5_000 });
    await gate.admit(['a']);
    const held = gate.admit(['b']);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await isDone(held)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await isDone(held)).toBe(true);
  });

  it('forgets places that were never given back (an upload processed elsewhere) after a while', async () => {
    let now = 0;
    const gate = createBacklogGate({ limit: 1, staleMs: 60_000, now: () => now });
    await gate.admit(['a']);
    now = 60_001;
    expect(await isDone(gate.admit(['b']))).toBe(true);
    expect(gate.size()).toBe(1);
  });

  it('lets a group larger than the limit in alone, and does nothing with a limit of 0', async () => {
    const gate = createBacklogGate({ limit: 2 });
    expect(await isDone(gate.admit(['a', 'b', 'c']))).toBe(true);
    const off = createBacklogGate({ limit: 0 });
    for (let i = 0; i < 100; i++) await off.admit([`u${i}`]);
    expect(off.size()).toBe(0);
  });
});
