/**
 * A faster way to talk to PGlite, for Drizzle and the job queue.
 *
 * PGlite's own `query` makes six calls into the WASM backend per statement (parse, describe the statement to
 * learn the parameter types, bind, describe the portal, execute, sync), each behind its own lock and `await`.
 * Here the whole extended-protocol exchange goes in one call, with the parameters as untyped text, the way
 * node-postgres sends them to PostgreSQL: so both engines see the same SQL with the same parameter rules, and
 * the suite that runs on PostgreSQL in CI covers what this path accepts.
 *
 * One lock orders everything: a statement outside a transaction waits for a running transaction to finish, as
 * with PGlite's own client (the engine has one connection).
 */
import {
  Mutex,
  parse,
  protocol,
  TransactionAbortedError,
  type messages,
  type PGlite,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';

export interface PipelinedQueryable {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  /** Statements without parameters, several allowed (simple query protocol); the results of each. */
  exec(text: string): Promise<Results[]>;
}

export interface PipelinedTransaction extends PipelinedQueryable {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface PipelinedPglite extends PipelinedQueryable {
  transaction<T>(fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T>;
  /** Closes the engine once the statement or transaction under way has finished. */
  close(): Promise<void>;
}

const { serialize } = protocol;

/** As node-postgres prepares a parameter, but bytes go as bytea hex text (text format throughout). */
function toParameter(value: unknown): string | null {
  const prepared = pgUtils.prepareValue(value);
  return Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const message = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/** PGlite's errors name the statement that failed; keep that, it is what makes a log line useful. */
function withStatement(err: unknown, text: string, params: unknown[] | undefined): unknown {
  if (err && typeof err === 'object' && 'severity' in err) {
    Object.assign(err, { query: text, params });
  }
  return err;
}

/** Prepared statements kept per database; each costs the engine a little memory. */
const MAX_PREPARED = 500;
/**
 * Errors after which a prepared statement is prepared again next time: "prepared statement does not exist",
 * and "cached plan must not change result type" (its table changed shape).
 */
const FORGET_ON = new Set(['26000', '0A000']);

interface Prepared {
  name: string;
  /** The statement's row description; `null` when it answers no rows, unset until its first run. */
  rows?: messages.BackendMessage | null;
}

/** Parsers by type id, as parseResults takes them. */
type Parsers = Parameters<typeof parse.parseResults>[1];
type OwnParsers = NonNullable<QueryOptions['parsers']>;

export function pipelined(client: PGlite, { maxPrepared = MAX_PREPARED } = {}): PipelinedPglite {
  const lock = new Mutex();

  // parseResults copies the engine's parsers (300+ once its array types are loaded) and a statement's own into
  // a new object on every call: about 150 µs a statement. Drizzle hands the same parsers object to every run
  // of a statement, so each gets, once, an object that has its own parsers and falls back to the engine's
  // through the prototype (which stays live: PGlite adds array types to that same object).
  const chained = new WeakMap<OwnParsers, Parsers>();
  function parsersFor(own: OwnParsers | undefined): Parsers {
    if (!own) return client.parsers;
    let parsers = chained.get(own);
    if (!parsers) {
      parsers = Object.assign(Object.create(client.parsers) as Parsers, own);
      chained.set(own, parsers);
    }
    return parsers;
  }

  async function run(message: Uint8Array, text: string, params?: unknown[]) {
    try {
      // syncToFs is a no-op on the Node filesystem PGlite uses here; skipping it saves a lock and an await.
      return await client.execProtocolStream(message, { syncToFs: false });
    } catch (err) {
      throw withStatement(err, text, params);
    }
  }

  // Statements are prepared once under a name and afterwards only bound and executed: that skips parsing and
  // analysing the SQL and describing its rows on every run (a one-row lookup: ~360 → ~130 µs). The row
  // description of the first run is kept and put in front of later runs' rows. At most MAX_PREPARED are kept;
  // the least recently run is closed, in the next exchange outside a transaction.
  const prepared = new Map<string, Prepared>();
  const toClose: string[] = [];
  let statementCount = 0;
  let inTransaction = false;

  async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const parts: Uint8Array[] = [];
    if (!inTransaction)
      for (const name of toClose.splice(0)) parts.push(serialize.close({ type: 'S', name }));
    let statement = prepared.get(text);
    const isNew = !statement;
    if (statement) {
      prepared.delete(text);
      prepared.set(text, statement);
    } else {
      statement = { name: `hs${(statementCount += 1)}` };
      parts.push(serialize.parse({ name: statement.name, text }));
    }
    parts.push(serialize.bind({ statement: statement.name, values: params.map(toParameter) }));
    if (statement.rows === undefined) parts.push(serialize.describe({ type: 'P' }));
    parts.push(serialize.execute({}), serialize.sync());

    let answer: messages.BackendMessage[];
    try {
      answer = await run(concat(parts), text, params);
    } catch (err) {
      // The statement may have been prepared before its bind or run failed: close it (closing one that does
      // not exist is no error). One the engine no longer knows is prepared again next time.
      if (isNew) toClose.push(statement.name);
      else if (FORGET_ON.has((err as { code?: string }).code ?? '')) {
        prepared.delete(text);
        toClose.push(statement.name);
      }
      throw err;
    }
    if (isNew) {
      prepared.set(text, statement);
      if (prepared.size > maxPrepared) {
        const [oldest] = prepared;
        if (oldest) {
          prepared.delete(oldest[0]);
          toClose.push(oldest[1].name);
        }
      }
    }
    if (statement.rows === undefined) {
      statement.rows = answer.find((m) => m.name === 'rowDescription') ?? null;
    } else if (statement.rows) {
      answer.unshift(statement.rows);
    }
    const rowMode = options?.rowMode ? { rowMode: options.rowMode } : undefined;
    return parse.parseResults(answer, parsersFor(options?.parsers), rowMode)[0] as Results<T>;
  }

  async function exec(text: string): Promise<Results[]> {
    const messages = await run(serialize.query(text), text);
    return parse.parseResults(messages, client.parsers);
  }

  const ready = client.waitReady;

  return {
    close: () => lock.runExclusive(() => client.close()),
    query: async (text, params, options) => {
      await ready;
      return lock.runExclusive(() => query(text, params, options));
    },
    exec: async (text) => {
      await ready;
      return lock.runExclusive(() => exec(text));
    },
    transaction: async (fn) => {
      await ready;
      return lock.runExclusive(async () => {
        await exec('BEGIN');
        inTransaction = true;
        let closed = false;
        const open = () => {
          if (closed) throw new Error('Transaction is closed');
        };
        const tx: PipelinedTransaction = {
          query: (text, params, options) => (open(), query(text, params, options)),
          exec: (text) => (open(), exec(text)),
          rollback: async () => {
            open();
            await exec('ROLLBACK');
            closed = true;
          },
          get closed() {
            return closed;
          },
        };
        try {
          const result = await fn(tx);
          if (!closed) {
            closed = true;
            const [commit] = await exec('COMMIT');
            // COMMIT of a transaction in which a statement failed (and the error was caught) rolls back.
            if ((commit as { command?: string } | undefined)?.command === 'ROLLBACK') {
              throw new TransactionAbortedError();
            }
          }
          return result;
        } catch (err) {
          if (!closed) {
            closed = true;
            await exec('ROLLBACK');
          }
          throw err;
        } finally {
          inTransaction = false;
        }
      });
    },
  };
}
