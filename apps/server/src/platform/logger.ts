import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { TOKEN_LOG_CHARS } from '@homesitter/contract';

/** A secret shortened for logs: its first 8 characters, never more. */
export function redactToken(token: string | undefined | null): string {
  if (!token) return '';
  return token.length <= TOKEN_LOG_CHARS ? token : `${token.slice(0, TOKEN_LOG_CHARS)}…`;
}

const SECRET_QUERY_KEYS = new Set(['code', 'token', 'access_token', 'id_token', 'refresh_token', 'password']);
/** Signatures of signed URLs (ours: `sig`; S3's): a prefix of one is of no use to anyone, so none is kept. */
const SIGNATURE_QUERY_KEYS = new Set([
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);

/** Shortens secret-bearing query values so mailed codes and tokens never reach a log line in full. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const [key, value] of params) {
    const name = key.toLowerCase();
    if (SIGNATURE_QUERY_KEYS.has(name)) params.set(key, REDACTED);
    else if (SECRET_QUERY_KEYS.has(name)) params.set(key, redactToken(value));
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}

const REDACTED = '[redacted]';
const keysPattern = (keys: Set<string>) => [...keys].map((k) => k.replace(/[-_]/g, '[-_]')).join('|');
const SIGNATURE_IN_TEXT = new RegExp(`([?&](?:${keysPattern(SIGNATURE_QUERY_KEYS)})=)[^&\\s"\\\\#]+`, 'gi');
/**
 * Token query values anywhere in a line; `code` only in request lines (redactUrl), as in outbox mode the
 * mailed link is logged in full on purpose (docs/operations.md, "Logs").
 */
const TOKEN_IN_TEXT = new RegExp(
  `([?&](?:${keysPattern(new Set([...SECRET_QUERY_KEYS].filter((k) => k !== 'code')))})=)([^&\\s"\\\\#]+)`,
  'gi',
);
/** `scheme://user:password@host`: an RTSP camera's login in a URL, or a database's. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/"\\]*:)[^\s@/"\\]+@/gi;
const AUTHORIZATION_FIELD = /("(?:authorization|proxy-authorization|cookie)"\s*:\s*")(?:[^"\\]|\\.)*"/gi;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]+/g;

/**
 * The last line of defence, run on every serialised log line: whatever field or message a secret hides
 * in (a URL inside an error message, a header object, a token in a text), signatures of signed URLs, the
 * password of a URL and Authorization headers are replaced, and tokens (query values, JWTs) cut to their
 * first 8 characters (docs/product.md §9).
 */
export function scrubSecrets(line: string): string {
  return line
    .replace(SIGNATURE_IN_TEXT, `$1${REDACTED}`)
    .replace(TOKEN_IN_TEXT, (_whole, key: string, value: string) => key + shortened(value))
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(AUTHORIZATION_FIELD, `$1${REDACTED}"`)
    .replace(JWT, (token) => redactToken(token));
}

/** A query value cut to its first characters, unless it already is (as the request line writes it). */
function shortened(value: string): string {
  const decoded = value.replace(/%E2%80%A6$/i, '…');
  return decoded.endsWith('…') && decoded.length <= TOKEN_LOG_CHARS + 1 ? value : redactToken(value);
}

/** Typed as Fastify's logger so the server, services and adapters share one logger type. */
export type Logger = FastifyBaseLogger;

/** The server's logger; `destination` (stdout by default) lets a test read every line. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.headers.authorization',
        '*.password',
        '*.refreshToken',
        '*.idToken',
        '*.accessToken',
        '*.access_token',
      ],
      censor: REDACTED,
    },
    hooks: { streamWrite: scrubSecrets },
  };
  return destination ? pino(options, destination) : pino(options);
}
