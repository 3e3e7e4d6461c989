import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stateReached } from '../../test/calls.js';
import { createTestDatabase } from '../../test/database.js';
import type { Database } from './db/client.js';
import { z } from 'zod';
import { createJobs, type JobRunner, type PayloadsOf } from './jobs.js';
import { createLogger } from './logger.js';

/** The jobs these tests send: a map of their own, as the server has job-map.ts. */
const n = z.object({ n: z.number() });
const TEST_JOBS = {
  'test.committed': n,
  'test.rolled-back': n,
  'test.flaky': n,
  'test.plain': n,
  'test.late-worker': n,
  'test.interrupted': n,
  'test.idle': n,
  'test.same-tick': n,
  'test.unsent': n,
  'test.fallback': n,
};

/**
 * A handler that keeps what it is given, and lets a test wait for the jobs themselves: `until` resolves when
 * `check` holds after a job, with no deadline but the test's own (a job that never comes fails on it).
 */
function receiver() {
  const got: number[] = [];
  const waiting: { check: (got: number[]) => boolean; resolve: () => void }[] = [];
  const handle = async (data: { n: number }) => {
    got.push(data.n);
    for (const waiter of waiting.filter((w) => w.check(got))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const until = (check: (got: number[]) => boolean) =>
    check(got) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ check, resolve }));
  return { got, handle, until };
}

/**
 * The database with the fetches of one queue counted (not those of pg-boss's own cron worker, every 5 s, which
 * a slow run would otherwise add); `firstLook` resolves when the first has answered.
 */
function countingFetches(database: Database, queue: string) {
  let answered: () => void = () => undefined;
  const counter = {
    fetches: 0,
    firstLook: new Promise<void>((resolve) => (answered = resolve)),
    database: {
      ...database,
      executeSql: async (text: string, values?: unknown[]) => {
        if (!/WITH next as/i.test(text) || values?.[0] !== queue) return database.executeSql(text, values);
        counter.fetches += 1;
        const result = await database.executeSql(text, values);
        answered();
        return result;
      },
    } satisfies Database,
  };
  return counter;
}

const isEmbedded = !process.env.TEST_DATABASE_URL;

describe('jobs', () => {
  let database: Database;
  let jobs: JobRunner<PayloadsOf<typeof TEST_JOBS>>;
  const committed = receiver();
  const rolledBack = receiver();
  const plain = receiver();
  const flaky = receiver();
  let flakyRuns = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    jobs = createJobs({
      schemas: TEST_JOBS,
      database,
      log: createLogger('silent'),
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    });
    // Registered before start, as modules do while the app is being built.
    await jobs.work('test.committed', { concurrency: 2 }, committed.handle);
    await jobs.work('test.rolled-back', {}, rolledBack.handle);
    await jobs.work('test.plain', {}, plain.handle);
    await jobs.work('test.flaky', {}, async (data) => {
      flakyRuns += 1;
      if (flakyRuns < 3) throw new Error('transient');
      await flaky.handle(data);
    });
    await jobs.start();
  }, 60_000);

  afterAll(async () => {
    await jobs.stop();
    await database.close();
  });

  it('runs a job sent in a committed transaction', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await jobs.send('test.committed', { n: 1 }, { tx });
      await jobs.send('test.committed', { n: 2 }, { tx });
    });
    await committed.until((got) => got.length === 2);
    expect(committed.got.sort()).toEqual([1, 2]);
  });

  it('runs every job of a batch sent in a committed transaction', async () => {
    await database.db.transaction(async (tx) => {
      await jobs.sendMany('test.committed', [{ n: 10 }, { n: 11 }, { n: 12 }], { tx });
    });
    await committed.until((got) => got.filter((n) => n >= 10).length === 3);
    expect(committed.got.filter((n) => n >= 10).sort()).toEqual([10, 11, 12]);
  });

  it('never runs a job sent in a transaction that rolled back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await jobs.send('test.rolled-back', { n: 1 }, { tx });
        await jobs.sendMany('test.rolled-back', [{ n: 3 }, { n: 4 }], { tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // A later job on the same queue runs, so the worker is alive; the queue holds that job alone, so no other
    // can run later.
    await jobs.send('test.rolled-back', { n: 2 });
    await rolledBack.until((got) => got.length >= 1);
    const queued = await database.query<{ n: number }>(
      `SELECT (data->>'n')::int AS n FROM pgboss.job WHERE name = $1`,
      ['test.rolled-back'],
    );
    expect(queued.map((row) => row.n)).toEqual([2]);
    expect(rolledBack.got).toEqual([2]);
  });

  it('runs a job sent without a transaction', async () => {
    await jobs.send('test.plain', { n: 7 });
    await plain.until((got) => got.length === 1);
    expect(plain.got).toEqual([7]);
  });

  // The retries wait out real backoff delays (1 s, then about 2 s) in the database's clock.
  it('retries a handler that throws until it succeeds', async () => {
    await jobs.send('test.flaky', { n: 3 });
    await flaky.until((got) => got.length === 1);
    expect(flakyRuns).toBe(3);
    expect(flaky.got).toEqual([3]);
  }, 40_000);

  it('starts a worker registered after start', async () => {
    const late = receiver();
    await jobs.send('test.late-worker', { n: 5 });
    await jobs.work('test.late-worker', {}, late.handle);
    await late.until((got) => got.length === 1);
    expect(late.got).toEqual([5]);
  });
});

// Each test here polls once a minute, longer than the test may take: every job must be found by the look its
// send (or a freed slot) asks for.
describe.skipIf(!isEmbedded)('an embedded queue between jobs', () => {
  it('is asked for jobs when some were sent, not again after every finished one', async () => {
    const database = await createTestDatabase();
    const counted = countingFetches(database, 'test.idle');
    const jobs = createJobs({
      schemas: TEST_JOBS,
      database: counted.database,
      log: createLogger('silent'),
      pollingIntervalSeconds: 60,
    });
    const idle = receiver();
    await jobs.work('test.idle', { concurrency: 1 }, idle.handle);
    await jobs.start();
    try {
      for (let n = 1; n <= 10; n++) {
        await jobs.send('test.idle', { n });
        await idle.until((got) => got.length === n);
      }
      await jobs.sendMany('test.idle', [{ n: 11 }, { n: 12 }, { n: 13 }]);
      await idle.until((got) => got.length === 13);
      expect([...idle.got].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      // One look at start, one per single send, about one per job of the batch (one at a time): before,
      // each finished job cost a look at an empty queue too.
      expect(counted.fetches).toBeLessThanOrEqual(1 + 10 + 4);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });

  it('finds a job sent in the same millisecond as the look its send asked for', async () => {
    const database = await createTestDatabase();
    const jobs = createJobs({
      schemas: TEST_JOBS,
      database,
      log: createLogger('silent'),
      pollingIntervalSeconds: 60,
    });
    const sameTick = receiver();
    await jobs.work('test.same-tick', { concurrency: 1 }, sameTick.handle);
    await jobs.start();
    // The embedded engine's clock is Date.now(): stopped, the send and the look it wakes run in one
    // millisecond, as a quick pair often does.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      await jobs.send('test.same-tick', { n: 1 });
      await sameTick.until((got) => got.length === 1);
      await jobs.sendMany('test.same-tick', [{ n: 2 }, { n: 3 }]);
      await sameTick.until((got) => got.length === 3);
      await database.db.transaction(async (tx) => {
        await jobs.send('test.same-tick', { n: 4 }, { tx });
      });
      await sameTick.until((got) => got.length === 4);
      expect([...sameTick.got].sort()).toEqual([1, 2, 3, 4]);
    } finally {
      clock.mockRestore();
      await jobs.stop();
      await database.close();
    }
  });

  it('finds a sent job when the look its send asked for claims an older one it did not send', async () => {
    const database = await createTestDatabase();
    const counted = countingFetches(database, 'test.unsent');
    const jobs = createJobs({
      schemas: TEST_JOBS,
      database: counted.database,
      log: createLogger('silent'),
      pollingIntervalSeconds: 60,
    });
    const unsent = receiver();
    await jobs.work('test.unsent', { concurrency: 1 }, unsent.handle);
    await jobs.start();
    try {
      await counted.firstLook;
      // A job that failed earlier and whose retry is due now: first in line, and not one this process sent.
      await database.query(
        `INSERT INTO pgboss.job (name, data, state, retry_count, created_on, start_after)
         VALUES ($1, $2, 'retry', 1, now() - interval '1 minute', now() - interval '1 second')`,
        ['test.unsent', { n: 1 }],
      );
      await jobs.send('test.unsent', { n: 2 });
      await unsent.until((got) => got.length === 2);
      expect(unsent.got).toEqual([1, 2]);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });
});

describe('jobs that are only a fallback', () => {
  it('are left for the poll when sent without waking the workers, and then claimed many at once', async () => {
    const database = await createTestDatabase();
    const counted = countingFetches(database, 'test.fallback');
    // Only the workers' poll timer is faked, so the test decides when the poll comes.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const jobs = createJobs({
      schemas: TEST_JOBS,
      database: counted.database,
      log: createLogger('silent'),
      pollingIntervalSeconds: 60,
    });
    const fallback = receiver();
    await jobs.work('test.fallback', { concurrency: 2 }, fallback.handle);
    await jobs.start();
    try {
      await counted.firstLook;
      await jobs.sendMany('test.fallback', [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }], {
        wake: false,
      });
      // A woken worker would have asked for jobs by the end of this turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(counted.fetches).toBe(1);
      expect(fallback.got).toEqual([]);
      // Found by the poll; a full claim (2 of 5) looks again as slots free, without waiting for more polls
      // (the clock does not move again, so another poll never comes).
      vi.advanceTimersByTime(60_000);
      await fallback.until((got) => got.length === 5);
      expect([...fallback.got].sort()).toEqual([1, 2, 3, 4, 5]);
    } finally {
      // pg-boss's stop waits on timers of its own.
      vi.useRealTimers();
      await jobs.stop();
      await database.close();
    }
  });
});

describe('queue settings', () => {
  it('gives the jobs of a queue its expiry, sent one by one or many at once, and keeps one job per id', async () => {
    const database = await createTestDatabase();
    const jobs = createJobs({
      schemas: TEST_JOBS,
      database,
      log: createLogger('silent'),
      expireInSeconds: { 'test.unsent': 42 },
      retryPolicy: { 'test.unsent': { retryDelaySeconds: 7, retryLimit: 3 } },
    });
    jobs.leaveQueued('test.unsent');
    await jobs.start();
    try {
      const id = '00000000-0000-8000-a000-000000000001';
      await jobs.send('test.unsent', { n: 1 }, { id });
      await jobs.send('test.unsent', { n: 2 }, { id });
      await jobs.sendMany('test.unsent', [{ n: 3 }]);
      await jobs.send('test.idle', { n: 4 });
      const rows = await database.query<{
        name: string;
        id: string;
        expire: number;
        retry_delay: number;
        retry_limit: number;
      }>(
        `SELECT name, id::text, extract(epoch FROM expire_in)::int AS expire, retry_delay, retry_limit
         FROM pgboss.job WHERE name IN ('test.unsent', 'test.idle') ORDER BY name, created_on`,
      );
      expect(rows.filter((r) => r.id === id)).toHaveLength(1);
      expect(rows.filter((r) => r.name === 'test.unsent').map((r) => r.expire)).toEqual([42, 42]);
      expect(rows.find((r) => r.id === id)).toMatchObject({ retry_delay: 7, retry_limit: 3 });
      // Other queues keep pg-boss's 15 minutes.
      expect(rows.find((r) => r.name === 'test.idle')?.expire).toBe(900);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });
});

describe.skipIf(!isEmbedded)('jobs after a crash (embedded)', () => {
  it('runs a job that was running when the process died again at once, not after its expiry', async () => {
    const database = await createTestDatabase();
    const log = createLogger('silent');
    try {
      const before = createJobs({
        schemas: TEST_JOBS,
        database,
        log,
      });
      await before.start();
      await before.send('test.interrupted', { n: 1 });
      // What a crash mid-job leaves: the job taken ("active") by a worker that is gone.
      await database.query(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = $1`, [
        'test.interrupted',
      ]);
      await before.stop();

      const after = createJobs({
        schemas: TEST_JOBS,
        database,
        log,
        pollingIntervalSeconds: 0.5,
        retryDelaySeconds: 1,
      });
      const interrupted = receiver();
      await after.work('test.interrupted', {}, interrupted.handle);
      await after.start();
      try {
        await interrupted.until((got) => got.length === 1);
        expect(interrupted.got).toEqual([1]);
      } finally {
        await after.stop();
      }
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('a job renamed by an upgrade', () => {
  it("runs the jobs queued under its old name, and drops the old name's schedule", async () => {
    const database = await createTestDatabase();
    const log = createLogger('silent');
    try {
      // The previous version: its jobs queued (one by one and many at once) and scheduled under the old name.
      const before = createJobs({ schemas: { 'test.old-name': n }, database, log });
      before.leaveQueued('test.old-name');
      await before.start();
      await before.send('test.old-name', { n: 1 });
      await before.sendMany('test.old-name', [{ n: 2 }, { n: 3 }]);
      await before.schedule('test.old-name', '0 3 * * *', { n: 0 });
      await before.stop();

      const after = createJobs({
        schemas: { 'test.new-name': n },
        renamed: { 'test.old-name': 'test.new-name' },
        database,
        log,
      });
      const moved = receiver();
      await after.work('test.new-name', {}, moved.handle);
      await after.start();
      try {
        await moved.until((got) => got.length === 3);
        expect([...moved.got].sort()).toEqual([1, 2, 3]);
        const left = await database.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'test.old-name'`,
        );
        expect(left[0]?.count).toBe(0);
        const schedules = await database.query<{ name: string }>(`SELECT name FROM pgboss.schedule`);
        expect(schedules.map((s) => s.name)).not.toContain('test.old-name');
      } finally {
        await after.stop();
      }
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('app.jobs', () => {
  it('is started with the app and drained when it closes', async () => {
    const { createTestApp } = await import('../../test/app.js');
    // Without the analysis, the app leaves analysis.analyse to whoever works it: here, the test.
    const t = await createTestApp({ analysis: false });
    const activityId = '00000000-0000-4000-8000-000000000009';
    const got = new Promise<string>(
      (resolve) => void t.jobs.work('analysis.analyse', {}, async (data) => resolve(data.activityId)),
    );
    try {
      await t.jobs.send('analysis.analyse', { activityId });
      expect(await got).toEqual(activityId);
    } finally {
      await t.close();
    }
    await expect(t.jobs.send('analysis.analyse', { activityId })).rejects.toThrow('stopped');
  }, 60_000);

  it("runs a job the previous version queued under the job's old name (ai.purge-ephemeral)", async () => {
    const { createTestApp } = await import('../../test/app.js');
    const database = await createTestDatabase();
    try {
      const before = createJobs({
        schemas: { 'ai.purge-ephemeral': z.object({}) },
        database,
        log: createLogger('silent'),
      });
      before.leaveQueued('ai.purge-ephemeral');
      await before.start();
      await before.send('ai.purge-ephemeral', {});
      await before.stop();

      const t = await createTestApp({ database });
      try {
        // Moved to alerts.purge-ephemeral at start, and run there.
        const states = await stateReached(
          async () =>
            (
              await database.query<{ name: string; state: string }>(
                `SELECT name, state FROM pgboss.job WHERE name IN ('ai.purge-ephemeral', 'alerts.purge-ephemeral')`,
              )
            ).map((r) => `${r.name} ${r.state}`),
          (rows) => rows.length === 1 && rows[0] === 'alerts.purge-ephemeral completed',
        );
        expect(states).toEqual(['alerts.purge-ephemeral completed']);
      } finally {
        await t.close();
      }
    } finally {
      await database.close();
    }
  }, 60_000);

  it('names the jobs of the map that nobody works, so the server can refuse to start without them', async () => {
    const database = await createTestDatabase();
    const jobs = createJobs({ schemas: TEST_JOBS, database, log: createLogger('silent') });
    try {
      expect(jobs.missingWorkers()).toHaveLength(Object.keys(TEST_JOBS).length);
      for (const name of Object.keys(TEST_JOBS) as (keyof typeof TEST_JOBS)[])
        if (name !== 'test.plain' && name !== 'test.unsent') await jobs.work(name, {}, async () => undefined);
      jobs.leaveQueued('test.unsent');
      expect(jobs.missingWorkers()).toEqual(['test.plain']);
      await expect(jobs.work('test.nowhere' as 'test.plain', {}, async () => undefined)).rejects.toThrow(
        'not in the job map',
      );
    } finally {
      await database.close();
    }
  });

  it('drops a payload that does not match its schema instead of retrying it', async () => {
    const database = await createTestDatabase();
    const jobs = createJobs({ schemas: TEST_JOBS, database, log: createLogger('silent') });
    const plain = receiver();
    await jobs.work('test.plain', {}, plain.handle);
    await jobs.start();
    try {
      // A payload from an older release, say: the type system cannot see it, the schema does.
      await jobs.send('test.plain', { n: 'nine' } as unknown as { n: number });
      await jobs.send('test.plain', { n: 9 });
      await plain.until((got) => got.length === 1);
      expect(plain.got).toEqual([9]);
      // Completions are written in batches: wait until neither job is still waiting or running.
      const states = await stateReached(
        async () =>
          (
            await database.query<{ state: string }>(
              `SELECT state FROM pgboss.job WHERE name = 'test.plain' ORDER BY created_on`,
            )
          ).map((s) => s.state),
        (all) => (console.log(all), all.length === 2 && all.every((s) => s !== 'created' && s !== 'active')),
      );
      expect(states).toEqual(['completed', 'completed']);
    } finally {
      await jobs.stop();
      await database.close();
    }
  }, 60_000);
});
