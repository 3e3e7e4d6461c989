import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import {
  createDatabase,
  MIGRATIONS_DIR,
  type Database,
  type DatabaseOptions,
  pgliteDirFor,
} from '../src/platform/db/client.js';

/**
 * A fresh, migrated database for one test: in-memory PGlite by default; with `TEST_DATABASE_URL`, a new
 * PostgreSQL database created for it and dropped when it closes (`onConnectionError` hears of its pooled
 * connections dying).
 *
 * Both start from a migrated template instead of creating a cluster and running every migration (PGlite's
 * initdb alone takes seconds): a PGlite dump kept in the temporary directory, or a PostgreSQL template
 * database. Either is named after the migrations (and the PGlite version), so a changed migration makes a new
 * one; `prepareTestDatabaseTemplate` (the vitest global setup) makes it once before the test files start.
 */
export async function createTestDatabase(
  options: Pick<DatabaseOptions, 'onConnectionError'> = {},
): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return createDatabase({ pgliteDump: await pgliteTemplate() });
  const template = await postgresTemplate(url);
  const name = `hs_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(url, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const database = await createDatabase({ url: databaseUrl(url, name), poolSize: 4, ...options });
  return {
    ...database,
    async close() {
      await database.close();
      await withAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Makes the template of the engine the tests will use, so parallel test files do not each make it. */
export async function prepareTestDatabaseTemplate(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await postgresTemplate(url);
  else await pgliteTemplate();
}

/** What a template depends on: every migration file, and for PGlite the engine's version. */
function templateKey(): string {
  const hash = createHash('sha256');
  const files = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((entry) => {
        const path = join(dir, entry);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
  for (const file of files(MIGRATIONS_DIR))
    hash.update(file.slice(MIGRATIONS_DIR.length)).update(readFileSync(file));
  hash.update(pgliteVersion());
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Gives a server process the tests start (`DATA_DIR` = `dataDir`) its embedded database already migrated:
 * on a fresh data directory the server would create the cluster (initdb, in a child process) and run every
 * migration, seconds of CPU that the test is not about. Its own start still runs the migrations it finds
 * applied.
 */
export async function seedServerDataDir(dataDir: string): Promise<void> {
  cpSync(await pgliteTemplateDir(), pgliteDirFor(dataDir), { recursive: true });
}

const TEMPLATES_DIR = join(tmpdir(), 'homesitter-test-db');

let pgliteDump: Promise<Blob> | undefined;

function pgliteTemplate(): Promise<Blob> {
  pgliteDump ??= loadOrMakePgliteTemplate();
  return pgliteDump;
}

let pgliteDir: Promise<string> | undefined;

/** The PGlite template unpacked into a data directory, as the server keeps its database on disk. */
function pgliteTemplateDir(): Promise<string> {
  pgliteDir ??= makePgliteTemplateDir();
  return pgliteDir;
}

async function makePgliteTemplateDir(): Promise<string> {
  const dir = join(TEMPLATES_DIR, `pglite-${templateKey()}`);
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  // Unpacked aside and renamed, like the dump: two files seeding at once never copy half a directory.
  const partial = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const engine = new PGlite({ dataDir: partial, loadDataDir: await pgliteTemplate() });
  await engine.waitReady;
  await engine.close();
  try {
    renameSync(partial, dir);
  } catch (err) {
    // Another process renamed its copy into place first; theirs is as good.
    if (!existsSync(join(dir, 'PG_VERSION'))) throw err;
    rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

async function loadOrMakePgliteTemplate(): Promise<Blob> {
  const dir = TEMPLATES_DIR;
  const file = join(dir, `pglite-${templateKey()}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const engine = new PGlite();
  await migrate(drizzle({ client: engine }), { migrationsFolder: MIGRATIONS_DIR });
  const dump = await engine.dumpDataDir('none');
  await engine.close();
  // Written aside and renamed: test files starting together never read half a template.
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return dump;
}

/** Any number to name the lock under which one test process makes the PostgreSQL template. */
const TEMPLATE_LOCK_ID = 72_417_002;

let postgresTemplateName: Promise<string> | undefined;

function postgresTemplate(url: string): Promise<string> {
  postgresTemplateName ??= makePostgresTemplate(url);
  return postgresTemplateName;
}

async function makePostgresTemplate(url: string): Promise<string> {
  const name = `hs_template_${templateKey()}`;
  await withAdmin(url, async (admin) => {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return;
      // Migrated under another name and renamed when done: a run that dies midway leaves no half template.
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const database = await createDatabase({ url: databaseUrl(url, building), poolSize: 2 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
    }
  });
  return name;
}

async function withAdmin<T>(url: string, run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}
