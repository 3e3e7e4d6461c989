import type { Logger } from './logger.js';

/**
 * Periodic work of a module (e.g. purging expired memories). Until the job runner (pg-boss, issue "Ingest")
 * arrives, `main.ts` runs these on unref'd interval timers in the serving process; tests call `run` directly.
 */
export interface BackgroundTask {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The modules' periodic tasks; started by main.ts, never by tests. */
    backgroundTasks: BackgroundTask[];
  }
}

/** Runs each task every `intervalMs` (one run at a time per task); answers a function that stops them all. */
export function startIntervalTasks(tasks: BackgroundTask[], log: Logger): () => void {
  const timers = tasks.map((task) => {
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      task
        .run()
        .then((result) => log.debug({ task: task.name, result }, 'background task done'))
        .catch((err: unknown) => log.error({ err, task: task.name }, 'background task failed'))
        .finally(() => {
          running = false;
        });
    };
    const timer = setInterval(tick, task.intervalMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((t) => clearInterval(t));
}
