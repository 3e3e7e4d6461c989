import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { installErrorHandler } from './error-handler.js';
import { OneLinePerRequest } from './request-log.js';
import { installNulGuard } from './nul-guard.js';
import { installSecurityHeaders } from './security-headers.js';

/** JSON bodies above this are refused with 413. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The Fastify instance every route is mounted on: zod validation, the error envelope, security headers,
 * per-route rate limits, the OpenAPI document at `/api/docs`, and a clean close under keep-alive.
 */
export async function createHttpServer(
  config: Config,
  log: Logger,
  mediaOrigins: string[],
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: log,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  // While shutting down, answers to in-flight requests close their connection, so keep-alive clients do not
  // hold the process open after the last response.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);
  installErrorHandler(app);
  installNulGuard(app);

  installSecurityHeaders(app, mediaOrigins);
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Homesitter API',
        version: '1.0.0',
        description:
          'The API of Homesitter, the AI home sitter for your cameras. Every answer is an envelope: `{success:true, data}` or `{success:false, message, code}`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  return app;
}
