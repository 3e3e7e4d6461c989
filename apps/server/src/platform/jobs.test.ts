import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import type { Database } from './db/client.js';
import { createJobs, type JobRunner } from './jobs.js';
import { createLogger } from './logger.js';

declare module './jobs.js' {
  interface JobPayloads {
    'test.committed': { n: number };
    'test.rolled-back': { n: number };
    'test.flaky': { n: number };
    'test.plain': { n: number };
    'test.late-worker': { n: number };
    'test.interrupted': { n: number };
    'test.idle': { n: number };
    'test.fallback': { n: number };
  }
}

/** Resolves when `check` holds, polling; fails the test after `ms`. */
async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('jobs', () => {
  let database: Database;
  let jobs: JobRunner;
  const seen: Record<string, number[]> = {};
  const record = (queue: string) => async (data: { n: number }) => {
    (seen[queue] ??= []).push(data.n);
  };
  let flakyRuns = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    jobs = createJobs({
      database,
      log: createLogger('silent'),
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    });
    // Registered before start, as modules do while the app is being built.
    await jobs.work('test.committed', { concurrency: 2 }, record('committed'));
    await jobs.work('test.rolled-back', {}, record('rolled-back'));
    await jobs.work('test.plain', {}, record('plain'));
    await jobs.work('test.flaky', {}, async (data) => {
      flakyRuns += 1;
      if (flakyRuns < 3) throw new Error('transient');
      (seen.flaky ??= []).push(data.n);
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
    await until(() => (seen.committed?.length ?? 0) === 2);
    expect(seen.committed?.sort()).toEqual([1, 2]);
  });

  it('runs every job of a batch sent in a committed transaction', async () => {
    await database.db.transaction(async (tx) => {
      await jobs.sendMany('test.committed', [{ n: 10 }, { n: 11 }, { n: 12 }], { tx });
    });
    await until(() => (seen.committed ?? []).filter((n) => n >= 10).length === 3);
    expect((seen.committed ?? []).filter((n) => n >= 10).sort()).toEqual([10, 11, 12]);
  });

  it('never runs a job sent in a transaction that rolled back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await jobs.send('test.rolled-back', { n: 1 }, { tx });
        await jobs.sendMany('test.rolled-back', [{ n: 3 }, { n: 4 }], { tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // A later job on the same queue runs, so the worker is alive and had its chance at the first one.
    await jobs.send('test.rolled-back', { n: 2 });
    await until(() => (seen['rolled-back']?.length ?? 0) >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(seen['rolled-back']).toEqual([2]);
  });

  it('runs a job sent without a transaction', async () => {
    await jobs.send('test.plain', { n: 7 });
    await until(() => (seen.plain?.length ?? 0) === 1);
    expect(seen.plain).toEqual([7]);
  });

  it('retries a handler that throws until it succeeds', async () => {
    await jobs.send('test.flaky', { n: 3 });
    await until(() => (seen.flaky?.length ?? 0) === 1, 30_000);
    expect(flakyRuns).toBe(3);
    expect(seen.flaky).toEqual([3]);
  }, 40_000);

  it('starts a worker registered after start', async () => {
    const got: number[] = [];
    await jobs.send('test.late-worker', { n: 5 });
    await jobs.work('test.late-worker', {}, async (data) => void got.push(data.n));
    await until(() => got.length === 1);
    expect(got).toEqual([5]);
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('an embedded queue between jobs', () => {
  it('is asked for jobs when some were sent, not again after every finished one', async () => {
    const database = await createTestDatabase();
    let fetches = 0;
    const counted: Database = {
      ...database,
      executeSql: (text, values) => {
        if (/WITH next as/i.test(text)) fetches += 1;
        return database.executeSql(text, values);
      },
    };
    // No poll during the test: every fetch is one a send or a finished job asked for.
    const jobs = createJobs({ database: counted, log: createLogger('silent'), pollingIntervalSeconds: 60 });
    const got: number[] = [];
    await jobs.work('test.idle', { concurrency: 1 }, async (data) => void got.push(data.n));
    await jobs.start();
    try {
      for (let n = 1; n <= 10; n++) {
        await jobs.send('test.idle', { n });
        await until(() => got.length === n);
      }
      await jobs.sendMany('test.idle', [{ n: 11 }, { n: 12 }, { n: 13 }]);
      await until(() => got.length === 13);
      expect([...got].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      // One look at start, one per single send, about one per job of the batch (one at a time): before,
      // each finished job cost a look at an empty queue too.
      expect(fetches).toBeLessThanOrEqual(1 + 10 + 4);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });
});

describe('jobs that are only a fallback', () => {
  it('are left for the poll when sent without waking the workers, and then claimed many at once', async () => {
    const database = await createTestDatabase();
    const jobs = createJobs({ database, log: createLogger('silent'), pollingIntervalSeconds: 1.5 });
    const got: number[] = [];
    await jobs.work('test.fallback', { concurrency: 2 }, async (data) => void got.push(data.n));
    await jobs.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const sentAt = Date.now();
      await jobs.sendMany('test.fallback', [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }], {
        wake: false,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(got).toEqual([]);
      // Found by the poll; a full claim (2 of 5) looks again as slots free, without waiting for more polls.
      await until(() => got.length === 5);
      expect(Date.now() - sentAt).toBeLessThan(3_000);
      expect([...got].sort()).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('jobs after a crash (embedded)', () => {
  it('runs a job that was running when the process died again at once, not after its expiry', async () => {
    const database = await createTestDatabase();
    const log = createLogger('silent');
    try {
      const before = createJobs({ database, log });
      await before.start();
      await before.send('test.interrupted', { n: 1 });
      // What a crash mid-job leaves: the job taken ("active") by a worker that is gone.
      await database.query(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = $1`, [
        'test.interrupted',
      ]);
      await before.stop();

      const after = createJobs({ database, log, pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 });
      const got: number[] = [];
      await after.work('test.interrupted', {}, async (data) => void got.push(data.n));
      await after.start();
      try {
        await until(() => got.length === 1);
        expect(got).toEqual([1]);
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
    const t = await createTestApp();
    const got: number[] = [];
    try {
      await t.app.jobs.work('test.plain', {}, async (data) => void got.push(data.n));
      await t.app.jobs.send('test.plain', { n: 9 });
      await until(() => got.length === 1);
      expect(got).toEqual([9]);
    } finally {
      await t.close();
    }
    await expect(t.app.jobs.send('test.plain', { n: 10 })).rejects.toThrow('stopped');
  }, 60_000);
});
