import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { serverPath } from '../paths.js';
import { pipelined } from './pglite-pipelined.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The one database type services see, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs pending migrations (the same SQL files on both engines). */
  migrate(): Promise<void>;
  /** Plain SQL with positional parameters, for tests and operator tooling; services use repositories. */
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Raw SQL for the job queue (pg-boss): with values, one statement; without, text may hold several (PGlite
   * runs those through `exec`, which has no parameters). Answers the rows of the (last) statement.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = serverPath('drizzle');

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it, PGlite. */
  url?: string | undefined;
  /** PGlite data directory; `undefined` keeps it in memory (tests). */
  pgliteDir?: string | undefined;
  /**
   * An in-memory PGlite starts from this dump (`dumpDataDir`) instead of creating a cluster: tests open a
   * migrated template in a fraction of the time initdb and the migrations take.
   */
  pgliteDump?: Blob | undefined;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
  /** Told when an idle pooled connection dies (a PostgreSQL restart or failover); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    return createPostgres(options.url, options.poolSize ?? 10, options.onConnectionError ?? (() => {}));
  }
  if (options.pgliteDir) await initPgliteDir(options.pgliteDir);
  return createPglite(options.pgliteDir, options.pgliteDump);
}

function createPostgres(url: string, max: number, onConnectionError: (err: Error) => void): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // Without a listener, an idle client's error (the server restarting, an admin ending the session) is an
  // unhandled 'error' event that kills the process; the pool drops that client and connects a new one.
  pool.on('error', onConnectionError);
  // The pool listens only while a connection is idle. One checked out (a transaction between statements, the
  // migration lock) that the server ends (a restart: "terminating connection due to administrator command")
  // would emit an unhandled 'error' and kill the process; its caller hears of it from its next statement, and
  // the pool discards the broken connection when it is released.
  // (An idle one's error reaches `onConnectionError` through the pool; this listener only keeps it handled.)
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const db = drizzleNodePg({ client: pool, schema });
  return {
    db,
    kind: 'postgres',
    migrate: () => migrateWithLock(pool, () => migrateNodePg(db, { migrationsFolder: MIGRATIONS_DIR })),
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    executeSql: async (text, values) => {
      const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(result) ? { rows: result.at(-1)?.rows ?? [] } : result;
    },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

/**
 * PostgreSQL settings for the embedded engine, sized for one household: PGlite keeps shared buffers inside
 * its WASM memory, so the default 128 MB would stay resident for good. The OS page cache still holds the
 * data files.
 */
const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'work_mem=4MB',
  '-c',
  'maintenance_work_mem=32MB',
];

/**
 * Creating a cluster (initdb) grows PGlite's WASM memory to several hundred MB, and WASM memory never
 * shrinks. So a new data directory is created by a short-lived child process, whose memory goes with it,
 * and the server then opens the finished directory at its normal size.
 */
async function initPgliteDir(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  mkdirSync(dir, { recursive: true });
  const script = `const { PGlite } = await import(process.argv[1]);
    const db = new PGlite(process.argv[2]); await db.waitReady; await db.close();`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), dir],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`Creating the embedded database in ${dir} failed (exit ${code})`);
}

/** Any number to name the migration lock; instances starting together run the migrations one at a time. */
const MIGRATION_LOCK_ID = 72_417_001;

async function migrateWithLock(pool: pg.Pool, run: () => Promise<void>): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await run();
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lock.release();
  }
}

function createPglite(dir: string | undefined, dump: Blob | undefined): Database {
  const engine = new PGlite({
    ...(dir ? { dataDir: dir } : {}),
    ...(dump ? { loadDataDir: dump } : {}),
    startParams: PGLITE_START_PARAMS,
  });
  const client = pipelined(engine);
  // Drizzle asks its client for `query` and `transaction` only; the pipelined client answers both.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema });
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
    },
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    ping: () => ping(db),
    close: () => client.close(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, 'db');
}
