import type { CameraLogger } from '@homesitter/cameras';
import type { LOG_LEVELS } from './config.js';

export type LogLevel = (typeof LOG_LEVELS)[number];

/** The camera code's logger, plus child loggers that carry fields such as the camera's id. */
export interface Logger extends CameraLogger {
  child(bindings: Record<string, unknown>): Logger;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
/** Fields that must never reach a log line, whoever passes them. */
const SECRET = /password|token|authorization|secret/i;

/**
 * One readable line per event on stderr: the helper runs in a terminal or as a login item, read by people,
 * not a log pipeline. `time LEVEL message key=value…`.
 */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => void process.stderr.write(line),
  bindings: Record<string, unknown> = {},
): Logger {
  const at =
    (name: Exclude<LogLevel, 'silent'>) =>
    (obj: Record<string, unknown>, msg: string): void => {
      if (RANK[name] < RANK[level]) return;
      const fields = Object.entries({ ...bindings, ...obj })
        .map(([key, value]) => `${key}=${SECRET.test(key) ? '[redacted]' : formatValue(value)}`)
        .join(' ');
      write(
        `${new Date().toISOString()} ${name.toUpperCase().padEnd(5)} ${msg}${fields ? ` ${fields}` : ''}\n`,
      );
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => createLogger(level, write, { ...bindings, ...more }),
  };
}

function formatValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return /^[\w.:/@-]+$/.test(value) ? value : JSON.stringify(value);
  if (value === undefined) return 'undefined';
  return JSON.stringify(value) ?? typeof value;
}
