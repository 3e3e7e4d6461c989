import type { FastifyInstance } from 'fastify';
import type { Logger } from './logger.js';

export interface ShutdownSteps {
  app: FastifyInstance;
  log: Logger;
  /** The camera servers' drain (FTP/SMTP): no new uploads, every one committed answered; undefined when off. */
  closeIngest: () => Promise<void>;
  /** What closes after the HTTP server and its onClose hooks (the job runner): mail, then the database. */
  closeRest: () => Promise<void>;
  /** How long open keep-alive connections are kept answering 503 before they are closed. */
  graceMs: number;
  /** After this the process exits 1 whatever is still running. */
  timeoutMs: number;
  exit: (code: number) => void;
}

/**
 * The order of a shutdown (SIGTERM, SIGINT; docs/operations.md "Stopping"):
 *
 * 1. at once: the HTTP listener and the camera FTP/SMTP listeners close (new connections are refused);
 *    a request arriving on an HTTP connection still open is answered 503 + `Connection: close` +
 *    `Retry-After`, a new FTP command 421, a new SMTP command 421;
 * 2. uploads in progress finish and are answered: every one committed hears its 226 / 250 / 202 before its
 *    connection closes; at least `graceMs` pass, so kept-alive HTTP clients hear the 503, not a reset;
 * 3. the HTTP server closes: requests still running finish, then its onClose hooks (the jobs drain);
 * 4. mail and the database close (after everything that may still write), and the process exits 0.
 */
export function createShutdown(steps: ShutdownSteps): (signal: string) => void {
  const { app, log } = steps;
  let started = false;
  return (signal) => {
    if (started) return;
    started = true;
    app.stopTakingRequests();
    log.info({ signal }, 'shutting down: taking no new uploads or requests, finishing those in progress');
    setTimeout(() => {
      log.error(`uploads or requests still running after ${steps.timeoutMs / 1000} s; exiting anyway`);
      steps.exit(1);
    }, steps.timeoutMs).unref();
    const grace = new Promise((resolve) => setTimeout(resolve, steps.graceMs));
    Promise.all([steps.closeIngest(), grace])
      .then(() => app.close())
      .then(() => steps.closeRest())
      .then(
        () => {
          log.info('shut down cleanly');
          steps.exit(0);
        },
        (err: unknown) => {
          log.error({ err }, 'shutdown failed');
          steps.exit(1);
        },
      );
  };
}
