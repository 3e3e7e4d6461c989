import { randomUUID } from 'node:crypto';
import type { HelperConfigureRequest, HelperJob, StreamConnectionInput } from '@homesitter/contract';
import { helperErrors } from '../http/index.js';
import { runConfigureJob, type JobDeps, type JobState } from './configure-job.js';

export type ConfigureCameras = HelperConfigureRequest['cameras'];

/** The cameras the helper sets up (docs/product.md §4: pending → configuring → configured | failed, retry). */
export interface Jobs {
  submit(cameras: ConfigureCameras): HelperJob[];
  list(): HelperJob[];
  /** Again, with a corrected connection when given; only a failed job may be retried. */
  retry(id: string, connection?: StreamConnectionInput): HelperJob;
  /** Abandons the running jobs (the helper is stopping). */
  stop(): Promise<void>;
}

/** Three cameras configure at once: each runs ffmpeg, and a small computer has few cores. */
const DEFAULT_CONCURRENCY = 3;
/** Jobs are kept for the page that follows them; the oldest finished ones go past this. */
const MAX_KEPT = 200;

export function createJobs(deps: JobDeps & { concurrency?: number }): Jobs {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const jobs = new Map<string, JobState>();
  const queue: JobState[] = [];
  const runs = new Set<Promise<void>>();
  const abort = new AbortController();

  function pump(): void {
    while (runs.size < concurrency && queue.length > 0 && !abort.signal.aborted) {
      const job = queue.shift()!;
      const run = runConfigureJob(job, deps, abort.signal);
      runs.add(run);
      void run.finally(() => {
        runs.delete(run);
        pump();
      });
    }
  }

  function forgetOldest(): void {
    for (const [id, job] of jobs) {
      if (jobs.size <= MAX_KEPT) return;
      if (job.view.status === 'configured' || job.view.status === 'failed') jobs.delete(id);
    }
  }

  const copy = (job: JobState): HelperJob => ({ ...job.view });

  return {
    submit(cameras) {
      const created = cameras.map((camera): JobState => ({
        view: {
          id: randomUUID(),
          device_id: camera.device_id,
          camera_name: camera.name.trim(),
          status: 'pending',
          error_code: null,
          message: null,
          mode: null,
          camera_uuid: null,
        },
        connection: camera.connection,
        siteUuid: camera.site_uuid,
        registeredAs: null,
        connectionChanged: false,
      }));
      for (const job of created) jobs.set(job.view.id, job);
      queue.push(...created);
      forgetOldest();
      // The answer shows them as accepted (pending), whichever start at once.
      const accepted = created.map(copy);
      pump();
      return accepted;
    },
    list: () => [...jobs.values()].map(copy),
    retry(id, connection) {
      const job = jobs.get(id);
      if (!job) throw helperErrors.notFound('No such job');
      if (job.view.status !== 'failed') throw helperErrors.busy('Only a failed camera can be tried again');
      if (connection) {
        job.connection = connection;
        job.connectionChanged = true;
      }
      job.view = { ...job.view, status: 'pending', error_code: null, message: null };
      queue.push(job);
      const accepted = copy(job);
      pump();
      return accepted;
    },
    async stop() {
      abort.abort();
      queue.length = 0;
      await Promise.allSettled([...runs]);
    },
  };
}
