import { MESSAGES, type ErrorEnvelope } from '@homesitter/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

    req.log.error({ err: error }, 'request failed');
    return send(reply, 500, {
      success: false,
      code: 'internal',
      message: routeMessage ?? MESSAGES.somethingWentWrong,
    });
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
