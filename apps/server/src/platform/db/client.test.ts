import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database.js';

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL pool', () => {
  it('survives its idle connections being ended by the server, and answers again', async () => {
    // The pool hears of each ended connection by an error on it, and drops it.
    let lost = 0;
    let heard: () => void = () => undefined;
    const database = await createTestDatabase({
      onConnectionError: () => {
        lost += 1;
        heard();
      },
    });
    const heardOf = (count: number) =>
      new Promise<void>((resolve) => {
        heard = () => lost >= count && resolve();
        heard();
      });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      // Two queries at once leave two idle connections in the pool.
      await Promise.all([database.query('select pg_sleep(0.05)'), database.query('select pg_sleep(0.05)')]);
      const [row] = await database.query<{ name: string }>('select current_database() as name');
      // What a server restart looks like to idle clients. Without a pool error listener this is an unhandled
      // 'error' event, which kills the process (vitest reports it as a failure).
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
        [row?.name],
      );
      expect(ended.rowCount).toBeGreaterThanOrEqual(1);
      await heardOf(ended.rowCount ?? 0);
      expect(await database.ping()).toBe(true);
      expect(await database.query('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
