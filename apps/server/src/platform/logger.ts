import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { TOKEN_LOG_CHARS } from '@homesitter/contract';

/** A secret shortened for logs: its first 8 characters, never more. */
export function redactToken(token: string | undefined | null): string {
  if (!token) return '';
  return token.length <= TOKEN_LOG_CHARS ? token : `${token.slice(0, TOKEN_LOG_CHARS)}…`;
}

const SECRET_QUERY_KEYS = new Set(['code', 'token', 'access_token', 'id_token', 'refresh_token', 'password']);

/** Shortens secret-bearing query values so mailed codes and tokens never reach a log line in full. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const [key, value] of params) {
    if (SECRET_QUERY_KEYS.has(key.toLowerCase())) params.set(key, redactToken(value));
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** Typed as Fastify's logger so the server, services and adapters share one logger type. */
export type Logger = FastifyBaseLogger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refreshToken',
        '*.idToken',
        '*.accessToken',
      ],
      censor: '[redacted]',
    },
  });
}
