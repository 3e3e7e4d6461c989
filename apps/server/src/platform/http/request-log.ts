import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from '../logger.js';
import { logFailure } from './error-handler.js';

/**
 * One log line per request, written when it completes, with secrets in the query shortened. Fastify's own
 * "incoming request" line is dropped.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: req.method,
      url: redactUrl(req.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: req.ip,
    };
    if (error) logFailure(reply.log, error, 'request errored', line);
    else reply.log.info(line, 'request');
  }
}
