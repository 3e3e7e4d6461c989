import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database, type DatabaseOptions } from '../src/platform/db/client.js';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with `TEST_DATABASE_URL`, a new
 * PostgreSQL database created for the file and dropped when it closes (`onConnectionError` hears of its
 * pooled connections dying).
 */
export async function createTestDatabase(
  options: Pick<DatabaseOptions, 'onConnectionError'> = {},
): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await createDatabase({});
    await database.migrate();
    return database;
  }
  const name = `hs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await createDatabase({ url: target.toString(), poolSize: 4, ...options });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      const drop = new pg.Client({ connectionString: url });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}
