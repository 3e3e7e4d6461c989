import { PGlite, TransactionAbortedError } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelined, type PipelinedPglite } from './pglite-pipelined.js';

let engine: PGlite;
let client: PipelinedPglite;
/** An empty cluster: the tests that need their own database load it instead of running initdb again. */
let blank: Blob;
const freshEngine = () => new PGlite({ loadDataDir: blank });

beforeAll(async () => {
  engine = new PGlite();
  await engine.waitReady;
  blank = await engine.dumpDataDir('none');
  client = pipelined(engine);
  await client.exec(`
    create table things (
      id serial primary key,
      name text not null unique,
      seen_at timestamptz,
      data jsonb,
      tags text[],
      bytes bytea,
      flag boolean
    );`);
});
afterAll(() => client.close());

describe('the pipelined PGlite client', () => {
  it('sends every kind of parameter as node-postgres does and parses the rows', async () => {
    const seenAt = new Date('2026-11-20T10:11:12.345Z');
    await client.query(
      'insert into things (name, seen_at, data, tags, bytes, flag) values ($1, $2, $3, $4, $5, $6)',
      ['porch', seenAt, { kind: 'cat', n: 2 }, ['a', 'b "c"'], Buffer.from([0, 1, 255]), true],
    );
    const { rows } = await client.query<Record<string, unknown>>(
      'select name, seen_at, data, tags, bytes, flag from things where name = $1 and id > $2',
      ['porch', 0],
    );
    expect(rows).toEqual([
      {
        name: 'porch',
        seen_at: seenAt,
        data: { kind: 'cat', n: 2 },
        tags: ['a', 'b "c"'],
        bytes: new Uint8Array([0, 1, 255]),
        flag: true,
      },
    ]);
  });

  it('answers arrays of rows when asked, and nulls for null and undefined', async () => {
    const { rows } = await client.query(
      'select $1::text as a, $2::int as b, $3::text as c',
      [null, 7, undefined],
      {
        rowMode: 'array',
      },
    );
    expect(rows).toEqual([[null, 7, null]]);
  });

  it('throws the database error with its code and the statement, and goes on working', async () => {
    await client.query('insert into things (name) values ($1)', ['dup']);
    const err = await client.query('insert into things (name) values ($1)', ['dup']).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: '23505',
      query: 'insert into things (name) values ($1)',
      params: ['dup'],
    });
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from things where name = $1',
      ['dup'],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('commits a transaction and rolls back a failed one', async () => {
    await client.transaction(async (tx) => {
      await tx.query('insert into things (name) values ($1)', ['kept']);
    });
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into things (name) values ($1)', ['dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await client.query<{ name: string }>(
      "select name from things where name in ('kept', 'dropped') order by name",
    );
    expect(rows.map((r) => r.name)).toEqual(['kept']);
  });

  it('refuses to commit a transaction in which a statement failed', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into things (name) values ($1)', ['aborted']);
        await tx.query('select 1 / 0').catch(() => undefined);
      }),
    ).rejects.toBeInstanceOf(TransactionAbortedError);
    const { rows } = await client.query("select 1 from things where name = 'aborted'");
    expect(rows).toHaveLength(0);
  });

  it('holds statements from outside until a running transaction ends', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('insert into things (name) values ($1)', ['inside']);
      order.push('tx wrote');
      await held;
      order.push('tx done');
    });
    const outside = client
      .query<{ n: number }>("select count(*)::int as n from things where name = 'inside'")
      .then(({ rows }) => order.push(`outside saw ${rows[0]?.n}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(['tx wrote', 'tx done', 'outside saw 1']);
  });

  it('runs several statements without parameters in one exec', async () => {
    const results = await client.exec("select 1 as one; select 'two' as two");
    expect(results.map((r) => r.rows)).toEqual([[{ one: 1 }], [{ two: 'two' }]]);
  });
});

describe('prepared statements', () => {
  it('prepares a statement once, binds it afterwards, and keeps its rows described', async () => {
    const db = freshEngine();
    const c = pipelined(db, { maxPrepared: 2 });
    await c.exec('create table pets (name text primary key, legs int not null, born timestamptz)');
    const born = new Date('2020-05-01T00:00:00.000Z');
    for (const [name, legs] of [
      ['Rex', 4],
      ['Polly', 2],
    ] as const)
      await c.query('insert into pets (name, legs, born) values ($1, $2, $3)', [name, legs, born]);
    for (let i = 0; i < 3; i += 1) {
      const { rows } = await c.query('select name, legs, born from pets where legs = $1', [4]);
      expect(rows).toEqual([{ name: 'Rex', legs: 4, born }]);
    }
    const named = await db.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
    expect(named.rows[0]?.n).toBe(2);

    // A third statement closes the least recently run one (in the next exchange).
    await c.query('select count(*)::int as n from pets', []);
    await c.query('select name from pets where legs = $1', [2]);
    await c.query('select name from pets where legs = $1', [4]);
    const left = await db.query<{ statement: string }>('select statement from pg_prepared_statements');
    expect(left.rows.map((r) => r.statement).sort()).toEqual([
      'select count(*)::int as n from pets',
      'select name from pets where legs = $1',
    ]);
    await c.close();
  });

  it('closes a statement whose first run failed, and prepares it again when it works', async () => {
    const db = freshEngine();
    const c = pipelined(db);
    await c.exec('create table kv (k text primary key)');
    await c.query('insert into kv values ($1)', ['a']);
    const insert = 'insert into kv values ($1) returning k';
    await expect(c.query(insert, ['a'])).rejects.toMatchObject({ code: '23505' });
    await c.query('select 1', []);
    const { rows } = await c.query(insert, ['b']);
    expect(rows).toEqual([{ k: 'b' }]);
    const statements = await db.query<{ statement: string }>('select statement from pg_prepared_statements');
    expect(statements.rows.filter((r) => r.statement === insert)).toHaveLength(1);
    await c.close();
  });

  it('prepares a statement again when its table changed shape', async () => {
    const db = freshEngine();
    const c = pipelined(db);
    await c.exec('create table t (a int); insert into t values (1)');
    expect((await c.query('select * from t', [])).rows).toEqual([{ a: 1 }]);
    await c.exec('alter table t add column b text');
    await c.query('select * from t', []).catch(() => undefined);
    expect((await c.query('select * from t', [])).rows).toEqual([{ a: 1, b: null }]);
    await c.close();
  });
});
