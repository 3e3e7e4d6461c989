/**
 * Durable background jobs (pg-boss 10) on the app's own database, embedded PGlite or PostgreSQL. The jobs and
 * their payload schemas are one map (`job-map.ts`): sends and workers are typed by it, a payload is checked
 * against its schema when a worker takes it, and `missingWorkers()` names the jobs nobody works.
 *
 * A job sent with `tx` is inserted through that transaction, so it exists exactly when the rows it is about
 * do. Handlers run at least once: a thrown error retries with backoff, and a crash mid-job runs it again after
 * it expires, so handlers must be idempotent.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database, Db } from './db/client.js';
import { JOB_SCHEMAS, RENAMED_JOBS } from './job-map.js';
import type { Logger } from './logger.js';

/** Job name → the schema of its payload. */
export type JobSchemas = Record<string, z.ZodType<object>>;
/** Job name → its payload, as sent and as the worker gets it. */
export type PayloadsOf<S extends JobSchemas> = { [N in keyof S]: z.output<S[N]> };

/** The server's jobs (job-map.ts). */
export type JobPayloads = PayloadsOf<typeof JOB_SCHEMAS>;
export type JobName = keyof JobPayloads;

export interface SendOptions {
  /** A Drizzle transaction (or the Db): the job commits, or rolls back, with it. */
  tx?: Db;
  /** At most one queued job per key and queue (pg-boss singleton). */
  singletonKey?: string;
  startAfterSeconds?: number;
  retryLimit?: number;
  /**
   * The job's own id (a UUID): a second send with the same id is ignored while the first is kept, which makes
   * a send idempotent (e.g. one retry per alert and channel).
   */
  id?: string;
}

export interface SendManyOptions {
  /** A Drizzle transaction (or the Db): the jobs commit, or roll back, with it. */
  tx?: Db;
  /**
   * False when the sender hands the work to its handler in memory itself and the jobs are only the durable
   * fallback (run after a crash, or when the in-memory run failed): the workers do not look for them at once
   * but find them at their next poll, many per fetch.
   */
  wake?: boolean;
}

export interface Jobs<P extends Record<string, object> = JobPayloads> {
  /** Enqueue. With `tx` (a Drizzle transaction or the Db) the job is inserted through it, so it commits with the row. */
  send<N extends keyof P & string>(name: N, data: P[N], options?: SendOptions): Promise<void>;
  /** Enqueue several jobs of one queue in one statement (e.g. uploads committed together), like `send`. */
  sendMany<N extends keyof P & string>(name: N, data: P[N][], options?: SendManyOptions): Promise<void>;
  /**
   * Handle jobs of one queue, `concurrency` at a time; a thrown error retries with backoff. The handler gets
   * the payload only when it matches the queue's schema.
   */
  work<N extends keyof P & string>(
    name: N,
    options: { concurrency?: number },
    handler: (data: P[N]) => Promise<void>,
  ): Promise<void>;
  /** Cron schedule (pg-boss schedule), in UTC unless `tz`. */
  schedule<N extends keyof P & string>(
    name: N,
    cron: string,
    data: P[N],
    options?: { tz?: string },
  ): Promise<void>;
}

/** The runner behind `Jobs`: the composition root starts it when the app is ready and stops it on close. */
export interface JobRunner<P extends Record<string, object> = JobPayloads> extends Jobs<P> {
  start(): Promise<void>;
  /** Stops fetching, waits (up to `timeoutMs`) for running handlers, then lets their last writes finish. */
  stop(timeoutMs?: number): Promise<void>;
  /**
   * This instance takes no jobs of `name`: they stay queued for another instance (or, in tests, to be read
   * as they were sent). `missingWorkers` leaves it out.
   */
  leaveQueued(name: keyof P & string): void;
  /** The jobs of the map that have no worker here and were not left queued on purpose. */
  missingWorkers(): string[];
}

export interface JobsOptions<S extends JobSchemas = typeof JOB_SCHEMAS> {
  database: Database;
  log: Logger;
  /** The jobs and their payload schemas; the server's own map unless a test brings its own. */
  schemas?: S;
  /** Old job name → its name now: jobs queued under the old one move at start (job-map.ts `RENAMED_JOBS`). */
  renamed?: Readonly<Record<string, string>>;
  /** How often idle workers look for due jobs: retries, delayed jobs, jobs sent by other instances (5 s embedded, 2 s on PostgreSQL). */
  pollingIntervalSeconds?: number;
  /** First retry delay; later ones double (with jitter). */
  retryDelaySeconds?: number;
  /** Retries after the first failed run, unless the sender says otherwise. */
  retryLimit?: number;
  /**
   * Per queue: seconds a job may stay active before pg-boss counts it as cut off (its instance died) and
   * retries it. Queues not named keep pg-boss's 15 minutes.
   */
  expireInSeconds?: Partial<Record<string, number>>;
  /**
   * Per queue: retry delay and limit other than the defaults (e.g. a retry spread over an hour).
   */
  retryPolicy?: Partial<Record<string, { retryDelaySeconds: number; retryLimit: number }>>;
  /** How often pg-boss's maintenance (expiring cut-off jobs, archiving) runs; one instance at a time does it. */
  maintenanceIntervalSeconds?: number;
}

const SCHEMA = 'pgboss';

/**
 * Sends through a transaction on PostgreSQL are invisible to the workers' own connections until commit,
 * which this module cannot see; the worker is woken again after these delays so a job does not wait for the
 * next poll. (PGlite runs every statement after the transaction, so one wake-up is enough there.)
 */
const POSTGRES_TX_WAKE_DELAYS_MS = [10, 50, 200];

interface Registration {
  name: string;
  concurrency: number;
  handler: (data: never) => Promise<void>;
}

/**
 * The worker of one queue: it claims as many jobs as it has free slots in one statement, runs them at once,
 * and marks finished ones completed together, so under load a job costs a fraction of the two statements
 * (fetch, complete) per job of pg-boss's own workers, which the embedded database feels on every job.
 */
interface QueueLoop {
  reg: Registration;
  running: Map<string, Promise<void>>;
  /** Finished jobs not yet marked completed (also those whose marking failed: the database was away). */
  finished: string[];
  /** Failed jobs whose failure could not be written yet (the database was away), with their error. */
  unfailed: { id: string; error: { message: string } }[];
  /** Set by a send or a finished job; makes the next wait return at once. */
  woken: boolean;
  /**
   * Embedded only (every job is sent by this process): ids of jobs sent and not yet claimed, as far as this
   * process knows. A finished job frees a slot, but the queue is only asked again when this says there is more
   * (or the poll is due), so an idle queue does not cost a fetch per finished job. Ids, not a count: a fetch
   * may claim jobs that were not sent just now (a retry or a delayed job come due), which must not be taken
   * for the sent ones still waiting.
   */
  pending: Set<string>;
  /** The poll interval passed: look whatever `pending` says (retries, delayed and scheduled jobs). */
  pollDue: boolean;
  wakeUp: (() => void) | undefined;
  stopped: boolean;
  exited: Promise<void>;
}

export function createJobs<S extends JobSchemas = typeof JOB_SCHEMAS>(
  options: JobsOptions<S>,
): JobRunner<PayloadsOf<S>> {
  const { database, log } = options;
  const schemas: JobSchemas = options.schemas ?? JOB_SCHEMAS;
  const renamed = options.renamed ?? (options.schemas ? {} : RENAMED_JOBS);
  const leftQueued = new Set<string>();
  // Embedded, every job is sent by this process, which wakes its workers itself: polls only find retries and
  // delayed jobs, so they can be rare (each costs a statement on the one embedded connection). With
  // PostgreSQL, other instances' jobs are found by polling.
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? (database.kind === 'pglite' ? 5 : 2);
  const baseQueueDefaults = {
    retryLimit: options.retryLimit ?? 5,
    retryDelay: options.retryDelaySeconds ?? 2,
    retryBackoff: true,
  };
  const expiries: Partial<Record<string, number>> = options.expireInSeconds ?? {};
  const retryPolicies: Partial<Record<string, { retryDelaySeconds: number; retryLimit: number }>> =
    options.retryPolicy ?? {};
  /** A queue's settings; its expiry and retry policy also go with every job sent (queues made before keep theirs). */
  function perJob(name: string) {
    const expireInSeconds = expiries[name];
    const policy = retryPolicies[name];
    return {
      ...(expireInSeconds !== undefined && { expireInSeconds }),
      ...(policy && { retryDelay: policy.retryDelaySeconds, retryLimit: policy.retryLimit }),
    };
  }
  const queueDefaults = (name: string) => ({ name, ...baseQueueDefaults, ...perJob(name) });

  // Every statement pg-boss runs on its own goes through here, so stop() can wait for the last ones.
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  const boss = new PgBoss({
    db: {
      executeSql: async (text: string, values?: unknown[]) => {
        inFlight += 1;
        try {
          return await database.executeSql(text, values);
        } finally {
          inFlight -= 1;
          if (inFlight === 0) onIdle?.();
        }
      },
    },
    schema: SCHEMA,
    ...(options.maintenanceIntervalSeconds !== undefined && {
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
    }),
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));

  const knownQueues = new Set<string>();
  const creatingQueues = new Map<string, Promise<void>>();
  const loops = new Map<string, QueueLoop>();
  const registrations: Registration[] = [];
  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  let starting: Promise<void> | undefined;

  function ensureQueue(name: string): Promise<void> {
    if (knownQueues.has(name)) return Promise.resolve();
    let creating = creatingQueues.get(name);
    if (!creating) {
      creating = boss
        .createQueue(name, queueDefaults(name))
        .then(() => void knownQueues.add(name))
        .finally(() => creatingQueues.delete(name));
      creatingQueues.set(name, creating);
    }
    return creating;
  }

  /** Makes the queue's worker look for jobs now (it is idle, or looks again right after what it is doing). */
  function wake(name: string, sent: readonly string[]): void {
    const loop = loops.get(name);
    if (!loop) return;
    for (const id of sent) loop.pending.add(id);
    loop.woken = true;
    loop.wakeUp?.();
  }

  /** Waits `ms`, or less when woken (also by a wake that came while the worker was busy). */
  function pause(loop: QueueLoop, ms: number): Promise<void> {
    if (loop.woken || loop.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (timedOut: boolean) => {
        clearTimeout(timer);
        loop.wakeUp = undefined;
        if (timedOut) loop.pollDue = true;
        resolve();
      };
      const timer = setTimeout(() => done(true), ms);
      loop.wakeUp = () => done(false);
    });
  }

  /**
   * When a job sent now is due. pg-boss claims only jobs whose `start_after` is strictly before the fetch's
   * `now()`, and a job's `start_after` defaults to its sending transaction's `now()`. The embedded engine reads
   * this process's clock in whole milliseconds, so the fetch a send wakes often runs in the send's millisecond:
   * it would not see the job, which would wait for the next poll. Embedded jobs are therefore due from a
   * millisecond before they are sent. (PostgreSQL's clock counts microseconds, and need not be this one.)
   */
  const dueNow = () => (database.kind === 'pglite' ? new Date(Date.now() - 1) : undefined);

  /** Whether asking the queue can find anything: always with PostgreSQL (other instances send too). */
  const worthFetching = (loop: QueueLoop) =>
    database.kind !== 'pglite' || loop.pending.size > 0 || loop.pollDue;

  /**
   * Writes what finished jobs came to. When the database is away (a restart, a failover) they stay in the
   * loop and are written at its next turn, so a job that ran is not left "active" until it expires (and then
   * run again).
   */
  async function flushCompleted(loop: QueueLoop): Promise<void> {
    if (loop.finished.length > 0) {
      const ids = loop.finished.splice(0);
      try {
        await boss.complete(loop.reg.name, ids);
      } catch (err) {
        loop.finished.unshift(...ids);
        throw err;
      }
    }
    while (loop.unfailed.length > 0) {
      const { id, error } = loop.unfailed[0]!;
      await boss.fail(loop.reg.name, id, error);
      loop.unfailed.shift();
    }
  }

  function run(loop: QueueLoop, job: PgBoss.Job<unknown>): void {
    const { reg } = loop;
    // The body starts on the next microtask, after `running` is in the map: a job that ends without awaiting
    // anything (a dropped payload) would otherwise leave its own entry there, and its slot taken for good.
    const running = Promise.resolve().then(async () => {
      try {
        // pg-boss stores a cron job's empty payload as null.
        const payload = schemas[reg.name]!.safeParse(job.data ?? {});
        if (payload.success) await reg.handler(payload.data as never);
        // A payload that does not match will never match: dropped (completed), not retried.
        else
          log.error(
            { job: reg.name, jobId: job.id, issues: payload.error.issues },
            'job payload does not match its schema; dropped',
          );
        loop.finished.push(job.id);
      } catch (err) {
        log.warn({ err, job: reg.name, jobId: job.id }, 'job failed; it will be retried');
        const error = err instanceof Error ? { message: err.message } : { message: String(err) };
        await boss.fail(reg.name, job.id, error).catch((e: unknown) => {
          // Written at the worker's next turn, once the database answers again.
          log.warn({ err: e, job: reg.name, jobId: job.id }, 'could not fail a job yet');
          loop.unfailed.push({ id: job.id, error });
        });
      } finally {
        loop.running.delete(job.id);
        // The freed slot takes the next job at once: under load the queue drains at handler speed.
        loop.woken = true;
        loop.wakeUp?.();
      }
    });
    loop.running.set(job.id, running);
  }

  async function workLoop(loop: QueueLoop): Promise<void> {
    const pollMs = pollingIntervalSeconds * 1000;
    while (!loop.stopped) {
      try {
        await flushCompleted(loop);
        const free = loop.reg.concurrency - loop.running.size;
        if (free <= 0 || !worthFetching(loop)) {
          await pause(loop, pollMs);
          loop.woken = false;
          continue;
        }
        loop.woken = false;
        loop.pollDue = false;
        const known = [...loop.pending];
        const jobs = await boss.fetch<unknown>(loop.reg.name, { batchSize: free });
        let unsent = 0;
        for (const job of jobs) if (!loop.pending.delete(job.id)) unsent += 1;
        // Fewer than asked for: all that was sent before the fetch is claimed (or rolled back, or not due yet).
        // Jobs sent while it ran may have committed after it, so they still count (at worst one fetch too many).
        if (jobs.length < free) for (const id of known) loop.pending.delete(id);
        // A full claim of jobs this process did not just send (a poll's find, a retry come due): more may be
        // waiting, so look again as slots free up.
        else if (unsent > 0) loop.pollDue = true;
        if (loop.stopped) {
          // Claimed while stopping: back to the queue at once.
          if (jobs.length > 0)
            await boss.fail(
              loop.reg.name,
              jobs.map((j) => j.id),
            );
          break;
        }
        for (const job of jobs) run(loop, job);
        if (jobs.length === 0) await pause(loop, pollMs);
      } catch (err) {
        log.error({ err, job: loop.reg.name }, 'job worker error');
        await pause(loop, pollMs);
      }
    }
  }

  async function startWorkers(reg: Registration): Promise<void> {
    await ensureQueue(reg.name);
    if (loops.has(reg.name)) throw new Error(`Job queue ${reg.name} already has a worker`);
    const loop: QueueLoop = {
      reg,
      running: new Map(),
      finished: [],
      unfailed: [],
      woken: true,
      pending: new Set(),
      // The first look finds what an earlier run of the app left queued.
      pollDue: true,
      wakeUp: undefined,
      stopped: false,
      exited: Promise.resolve(),
    };
    loops.set(reg.name, loop);
    loop.exited = workLoop(loop);
  }

  /** Stops every worker: no more fetching, running jobs finish (up to `timeoutMs`), completions are written. */
  async function stopWorkers(timeoutMs: number): Promise<void> {
    const all = [...loops.values()];
    for (const loop of all) {
      loop.stopped = true;
      loop.wakeUp?.();
    }
    await Promise.all(all.map((l) => l.exited));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(all.flatMap((l) => [...l.running.values()])),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    for (const loop of all) {
      await flushCompleted(loop).catch((err: unknown) => log.error({ err }, 'could not complete jobs'));
      // Still running after the wait: handed back, to run again (handlers are idempotent).
      const unfinished = [...loop.running.keys()];
      if (unfinished.length > 0)
        await boss
          .fail(loop.reg.name, unfinished)
          .catch((err: unknown) => log.error({ err }, 'could not fail jobs'));
    }
  }

  /**
   * Embedded, this process is the only one on its database, so a job still "active" at start was cut off by
   * a crash: it is failed now (and so retried) instead of waiting out its expiry (15 minutes). PostgreSQL may
   * be shared by instances still running their jobs, so there expiry decides.
   */
  async function retryInterrupted(): Promise<void> {
    const { rows } = await database.executeSql(
      `SELECT name, id FROM ${SCHEMA}.job WHERE state = 'active'`,
      [],
    );
    const byQueue = new Map<string, string[]>();
    for (const row of rows as { name: string; id: string }[])
      byQueue.set(row.name, [...(byQueue.get(row.name) ?? []), row.id]);
    for (const [name, ids] of byQueue) {
      await boss.fail(name, ids);
      log.warn({ job: name, count: ids.length }, 'jobs cut off by a crash will run again');
    }
  }

  /**
   * Jobs a previous version queued under a name the job no longer has move to its new name (and so to its
   * worker), and the old name's schedule goes, as the new name is scheduled. Only waiting jobs move: one still
   * running on an instance of the previous version finishes there (on the embedded database none is, see
   * `retryInterrupted`, which runs first).
   */
  async function moveRenamedJobs(): Promise<void> {
    for (const [old, name] of Object.entries(renamed)) {
      if (!knownQueues.has(old)) continue;
      await ensureQueue(name);
      const { rows } = await database.executeSql(
        `WITH moved AS (UPDATE ${SCHEMA}.job SET name = $2 WHERE name = $1 AND state IN ('created', 'retry') RETURNING 1)
         SELECT count(*)::int AS count FROM moved`,
        [old, name],
      );
      await boss.unschedule(old);
      const count = (rows[0] as { count: number } | undefined)?.count ?? 0;
      if (count > 0) log.info({ job: name, from: old, count }, 'queued jobs moved to their new name');
    }
  }

  function whenStarted(): Promise<void> {
    if (state === 'started') return Promise.resolve();
    if (state === 'starting' && starting) return starting;
    return Promise.reject(new Error(`Job queue is ${state === 'new' ? 'not started' : 'stopped'}`));
  }

  /** A pg-boss executor that runs inside the caller's Drizzle transaction. */
  function executorFor(db: Db) {
    return {
      executeSql: async (text: string, values: unknown[] = []) => {
        // node-postgres answers a QueryResult, PGlite a Results: both carry `rows`.
        const result: unknown = await db.execute(withParams(text, values));
        return { rows: (result as { rows: unknown[] }).rows };
      },
    };
  }

  return {
    async send(name, data, sendOptions = {}) {
      await whenStarted();
      const { tx, singletonKey, startAfterSeconds, retryLimit, id: jobId } = sendOptions;
      const startAfter =
        startAfterSeconds !== undefined && startAfterSeconds > 0 ? startAfterSeconds : dueNow();
      const pgOptions: PgBoss.SendOptions = {
        ...perJob(name),
        ...(jobId !== undefined && { id: jobId }),
        ...(startAfter !== undefined && { startAfter }),
        ...(singletonKey !== undefined && { singletonKey }),
        ...(retryLimit !== undefined && { retryLimit }),
      };
      if (tx) {
        const executor = executorFor(tx);
        // Creating the queue on the pool would wait for this very transaction on PGlite (one connection), so
        // an unknown queue is created inside it; if the transaction rolls back, so does the queue.
        if (!knownQueues.has(name))
          await executor.executeSql(`SELECT ${SCHEMA}.create_queue($1, $2)`, [name, queueDefaults(name)]);
        const id = await boss.send(name, data as object, { ...pgOptions, db: executor });
        // No id: a singleton already queued, nothing new to look for.
        wake(name, id ? [id] : []);
        if (database.kind === 'postgres')
          for (const ms of POSTGRES_TX_WAKE_DELAYS_MS) setTimeout(() => wake(name, []), ms).unref();
      } else {
        await ensureQueue(name);
        const id = await boss.send(name, data as object, pgOptions);
        wake(name, id ? [id] : []);
      }
    },

    async sendMany(name, data, sendOptions = {}) {
      if (data.length === 0) return;
      await whenStarted();
      const { tx, wake: wakeWorkers = true } = sendOptions;
      const executor = tx ? executorFor(tx) : undefined;
      if (!knownQueues.has(name)) {
        if (executor)
          await executor.executeSql(`SELECT ${SCHEMA}.create_queue($1, $2)`, [name, queueDefaults(name)]);
        else await ensureQueue(name);
      }
      // pg-boss's insert answers no ids, so they are chosen here for the workers' `pending`.
      const startAfter = dueNow();
      const inserted = data.map((d) => ({
        id: randomUUID(),
        name,
        data: d,
        ...perJob(name),
        ...(startAfter !== undefined && { startAfter }),
      }));
      await boss.insert(inserted, executor ? { db: executor } : {});
      if (!wakeWorkers) return;
      wake(
        name,
        inserted.map((job) => job.id),
      );
      if (tx && database.kind === 'postgres')
        for (const ms of POSTGRES_TX_WAKE_DELAYS_MS) setTimeout(() => wake(name, []), ms).unref();
    },

    async work(name, workOptions, handler) {
      if (!schemas[name]) throw new Error(`Job ${name} is not in the job map`);
      const reg: Registration = {
        name,
        concurrency: Math.max(1, workOptions.concurrency ?? 1),
        handler,
      };
      registrations.push(reg);
      // Before the app is ready this only registers; start() brings the workers up.
      if (state === 'started') await startWorkers(reg);
    },

    async schedule(name, cron, data, scheduleOptions = {}) {
      await whenStarted();
      await ensureQueue(name);
      await boss.schedule(name, cron, data, scheduleOptions.tz ? { tz: scheduleOptions.tz } : {});
    },

    leaveQueued(name) {
      leftQueued.add(name);
    },

    missingWorkers() {
      const worked = new Set(registrations.map((r) => r.name));
      return Object.keys(schemas).filter((name) => !worked.has(name) && !leftQueued.has(name));
    },

    async start() {
      if (state !== 'new') return whenStarted();
      state = 'starting';
      starting = (async () => {
        await boss.start();
        for (const queue of await boss.getQueues()) knownQueues.add(queue.name);
        if (database.kind === 'pglite') await retryInterrupted();
        await moveRenamedJobs();
        for (const reg of registrations) await startWorkers(reg);
        state = 'started';
      })();
      return starting;
    },

    async stop(timeoutMs = 15_000) {
      if (state === 'starting') await starting?.catch(() => undefined);
      if (state !== 'started') {
        state = 'stopped';
        return;
      }
      state = 'stopped';
      await stopWorkers(timeoutMs);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
      if (inFlight > 0) await new Promise<void>((resolve) => (onIdle = resolve));
    },
  };
}

/** pg-boss's `$n` placeholders as Drizzle parameters, so its statements run on a Drizzle transaction. */
function withParams(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) chunks.push(sql.raw(part));
    else chunks.push(sql`${values[Number(part) - 1] ?? null}`);
  });
  return sql.join(chunks);
}
