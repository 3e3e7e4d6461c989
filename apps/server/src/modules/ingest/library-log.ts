import type { Logger } from '../../platform/logger.js';

type LogCall = (...args: unknown[]) => void;

export interface BunyanLike {
  child(bindings: Record<string, unknown>): BunyanLike;
  trace: LogCall;
  debug: LogCall;
  info: LogCall;
  warn: LogCall;
  error: LogCall;
  fatal: LogCall;
}

/**
 * A bunyan-shaped logger (what ftp-srv expects) that writes to our pino logger at debug level: the library
 * logs every client hiccup (dropped connections, unknown commands) as an error, which is noise in operation.
 * What matters (refusals, failures, listening) the ingest servers log themselves.
 */
export function quietLibraryLog(log: Logger): BunyanLike {
  const call: LogCall = (...args) => void Reflect.apply(log.debug, log, args);
  return {
    child: (bindings) => quietLibraryLog(log.child(bindings)),
    trace: (...args) => void Reflect.apply(log.trace, log, args),
    debug: call,
    info: call,
    warn: call,
    error: call,
    fatal: (...args) => void Reflect.apply(log.warn, log, args),
  };
}
