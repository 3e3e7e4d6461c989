import { MESSAGES, type ErrorEnvelope } from '@homesitter/contract';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

type Detail = { field: string; message: string };

/** Fastify's own 4xx codes, rendered with a clear message and a stable code of ours. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: ErrorEnvelope['code']; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    message: "The request body is empty but Content-Type is 'application/json'",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Unsupported Content-Type; send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'validation_failed', message: 'Content-Length does not match' },
};

/** A PostgreSQL error (PGlite, node-postgres) carries a SQLSTATE `code` and a `severity`. */
function isPostgresError(value: unknown): value is Error & { code: string } {
  return value instanceof Error && typeof (value as { severity?: unknown }).severity === 'string';
}

/**
 * A failed statement: Drizzle's wrapper (its message and `query`/`params` hold the SQL and the values) or the
 * driver's own error (its `detail` can quote the values).
 */
function databaseFailure(error: unknown): { type: string; code?: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const wrapped = typeof (error as { query?: unknown }).query === 'string';
  const driver = isPostgresError(error) ? error : isPostgresError(error.cause) ? error.cause : undefined;
  if (!wrapped && !driver) return undefined;
  const type = error.name === 'Error' ? error.constructor.name : error.name;
  return { type, ...(driver ? { code: driver.code } : {}) };
}

/**
 * How an unexpected error is logged: a database failure shows only its class and SQLSTATE code at error
 * level (the SQL, its parameters and the user's text go to debug); any other error is logged whole.
 */
export function logFailure(
  log: Pick<FastifyBaseLogger, 'error' | 'debug'>,
  error: unknown,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  const db = databaseFailure(error);
  if (!db) {
    log.error({ ...fields, err: error }, message);
    return;
  }
  log.error({ ...fields, db }, `${message}: database error ${db.code ?? db.type}`);
  log.debug({ ...fields, err: error }, `${message}: database error details`);
}

function send(reply: FastifyReply, status: number, body: ErrorEnvelope, retryAfter?: number) {
  if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
  return reply.status(status).send(body);
}

/**
 * One place turns every failure into the envelope `{success:false, message, code}`. Bad input is a 4xx with
 * a clear message; anything unexpected is logged and answered with a generic 500 that hides internals.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const routeMessage = req.routeOptions.config?.failureMessage;

    if (hasZodFastifySchemaValidationErrors(error)) {
      const details: Detail[] = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Invalid value',
      }));
      const first = details[0];
      const clear = first
        ? first.field
          ? `${first.field}: ${first.message}`
          : first.message
        : 'Invalid request';
      return send(reply, 400, {
        success: false,
        code: 'validation_failed',
        message: routeMessage ?? clear,
        details,
      });
    }

    if (error instanceof AppError) {
      const useRouteMessage = routeMessage !== undefined && (error.generic || error.status >= 500);
      return send(
        reply,
        error.status,
        {
          success: false,
          code: error.code,
          message: useRouteMessage ? routeMessage : error.message,
          ...(useRouteMessage ? { details: [{ field: '', message: error.message }] } : {}),
          ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
        },
        error.retryAfterSeconds,
      );
    }

    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    const status = error.statusCode ?? 500;
    if (known || (status >= 400 && status < 500 && !isResponseSerializationError(error))) {
      if (status === 429) {
        return send(reply, 429, { success: false, code: 'rate_limited', message: error.message });
      }
      return send(reply, status >= 400 && status < 500 ? status : 400, {
        success: false,
        code: known?.code ?? 'validation_failed',
        message: routeMessage ?? known?.message ?? error.message,
        ...(routeMessage ? { details: [{ field: '', message: known?.message ?? error.message }] } : {}),
      });
    }

    logFailure(req.log, error, 'request failed');
    return send(reply, 500, {
      success: false,
      code: 'internal',
      message: routeMessage ?? MESSAGES.somethingWentWrong,
    });
  });
}

/** What Fastify's router refuses before any route (and so before `setErrorHandler`) runs. */
const ROUTER_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'The request path is not valid percent-encoded UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment of the request is too long',
};

/**
 * The envelope for errors Fastify's router raises itself (a path that is not valid percent-encoding, a path
 * parameter over `maxParamLength`): pass it as the `frameworkErrors` option of `Fastify()`.
 */
export function sendFrameworkError(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const status =
    error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 400;
  void send(reply, status, {
    success: false,
    code: 'validation_failed',
    message: (error.code && ROUTER_ERRORS[error.code]) ?? 'The request URL is not valid',
  });
}

/** Unknown routes answer 404 JSON, never an HTML page. */
export function sendRouteNotFound(req: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, {
    success: false,
    code: 'route_not_found',
    message: `No route ${req.method} ${req.url.split('?')[0]}`,
  });
}
