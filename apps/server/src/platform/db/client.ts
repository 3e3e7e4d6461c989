import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { serverPath } from '../paths.js';
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
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

export function createDatabase(options: DatabaseOptions): Database {
  return options.url ? createPostgres(options.url, options.poolSize ?? 10) : createPglite(options.pgliteDir);
}

function createPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  const db = drizzleNodePg({ client: pool, schema });
  return {
    db,
    kind: 'postgres',
    migrate: () => migrateNodePg(db, { migrationsFolder: MIGRATIONS_DIR }),
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

function createPglite(dir: string | undefined): Database {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir);
  const db = drizzlePglite({ client, schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
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
