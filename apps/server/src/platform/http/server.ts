import { Server as NetServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyUnderPressure from '@fastify/under-pressure';
import { apiRoutes } from '@homesitter/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { createFairQueue } from '../fair-queue.js';
import type { Logger } from '../logger.js';
import { installCors } from './cors.js';
import { installErrorHandler, sendFrameworkError } from './error-handler.js';
import { OneLinePerRequest } from './request-log.js';
import { installNulGuard } from './nul-guard.js';
import { installSecurityHeaders } from './security-headers.js';

/** JSON bodies above this are refused with 413. */
const BODY_LIMIT_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Shutdown's first step (platform/shutdown.ts): no new connections, and every request that arrives on one
     * still open is answered 503 with `Connection: close`. Requests already running go on; `close()` follows.
     */
    stopTakingRequests(): void;
  }
}

/** Answered to every request that comes in after SIGTERM (docs/operations.md, "Stopping"). */
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;
const shuttingDown = () =>
  new AppError(503, 'server.unavailable', 'The server is restarting; try again in a few seconds', {
    retryAfterSeconds: SHUTDOWN_RETRY_AFTER_SECONDS,
  });

const overloaded = (retryAfterSeconds: number) =>
  new AppError(503, 'server.unavailable', `The server is busy; try again in ${retryAfterSeconds} seconds`, {
    retryAfterSeconds,
  });

/** Load balancers must keep seeing an overloaded instance as alive, so these are never shed. */
const NEVER_SHED = new Set(['/healthz', '/readyz']);

/**
 * Routes whose handler does heavy CPU work (a photo's decode and re-encode, seconds each): one user's burst
 * of them waits in that user's queue instead of in front of everyone's (platform/fair-queue.ts).
 */
const HEAVY_ROUTES = [apiRoutes.uploadMemoryImage];

/**
 * Whether the client is gone: it closed its connection while its request waited (for a place in a queue,
 * for the event loop). Handlers that change data are not started for such a request: nobody would hear
 * the answer, and a client that gave up has likely sent the request again.
 */
const clientGone = (req: FastifyRequest) =>
  req.raw.aborted || req.raw.socket?.destroyed === true || req.raw.socket?.writable === false;

const WRITING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface HttpServerOptions {
  /**
   * Another source of "overloaded" (tests inject pressure with it): while it answers true, API calls are
   * shed like under event-loop lag. Asked once at start and then every `pressureCheckMs`.
   */
  overloaded?: () => boolean | Promise<boolean>;
  pressureCheckMs?: number;
}

/**
 * The Fastify instance every route is mounted on: zod validation, the error envelope, security headers,
 * load shedding, per-route rate limits, fair queues for heavy routes, the OpenAPI document at `/api/docs`,
 * and a drain on shutdown that answers 503 instead of resetting kept-alive connections.
 */
export async function createHttpServer(
  config: Config,
  log: Logger,
  mediaOrigins: string[],
  options: HttpServerOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: log,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
    // The router's own refusals (bad percent-encoding, an overlong parameter) answer with our envelope too.
    frameworkErrors: sendFrameworkError,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  // While shutting down, answers to in-flight requests close their connection, so keep-alive clients do not
  // hold the process open after the last response, and requests that arrive on a connection still open
  // are answered 503 (below), not reset.
  let closing = false;
  app.decorate('stopTakingRequests', () => {
    if (closing) return;
    closing = true;
    // net.Server's close, not http.Server's: that one also closes the idle keep-alive connections at once,
    // and a request a client sends on one at that moment meets a reset instead of the 503.
    if (app.server.listening) NetServer.prototype.close.call(app.server);
  });
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
  // The phone apps' CORS; their preflights are answered before the shutdown refusal and load shedding.
  installCors(app, { origins: config.NATIVE_APP_ORIGINS });

  installSecurityHeaders(app, {
    publicUrl: config.PUBLIC_URL,
    mediaOrigins,
    payments: config.STRIPE_PUBLISHABLE_KEY !== undefined,
  });
  app.addHook('onRequest', async () => {
    if (closing) throw shuttingDown();
  });
  await installLoadShedding(app, config, options);
  installFairQueues(app, config);
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

/**
 * @fastify/under-pressure: while the event loop lags or the heap is nearly full, API calls are answered 503
 * with `Retry-After` and the error envelope at once, instead of queueing behind the work that overloads the
 * server (and being answered after their client gave up). Health checks are always answered.
 */
async function installLoadShedding(
  app: FastifyInstance,
  config: Config,
  options: HttpServerOptions,
): Promise<void> {
  const retryAfter = config.OVERLOAD_RETRY_AFTER_SECONDS;
  const heapMb = config.OVERLOAD_MAX_HEAP_USED_MB;
  const maxHeapUsedBytes =
    heapMb === undefined ? Math.floor(getHeapStatistics().heap_size_limit * 0.9) : heapMb * 1024 * 1024;
  const lag =
    config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS > 0
      ? sustainedLag(config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS)
      : undefined;
  if (lag) app.addHook('onClose', async () => lag.stop());
  const { overloaded: injected } = options;
  const overloadedNow = async () => (lag?.lagging() ?? false) || (injected ? await injected() : false);
  let warned = false;
  await app.register(fastifyUnderPressure, {
    maxHeapUsedBytes,
    retryAfter,
    // The event-loop lag is ours (sustainedLag) rather than the plugin's `maxEventLoopDelay`, which would
    // shed for a second after any single long pause, such as the embedded database's start.
    healthCheck: async () => !(await overloadedNow()),
    healthCheckInterval: options.pressureCheckMs ?? 1_000,
    pressureHandler: (req, _reply, type, value) => {
      if (NEVER_SHED.has(req.url.split('?')[0]!)) return;
      if (!warned) {
        warned = true;
        app.log.warn(
          { type: type === 'healthCheck' ? 'eventLoopDelay' : type, value },
          'overloaded: shedding API calls with 503 until it passes',
        );
        setTimeout(() => (warned = false), 60_000).unref();
      }
      // Thrown in an onRequest hook: the error handler renders the envelope and the Retry-After header.
      throw overloaded(retryAfter);
    },
  });
}

/** Seconds in a row the event loop must lag before calls are shed: one long pause is not overload. */
const LAGGING_SECONDS = 2;

/**
 * Whether the event loop has lagged more than `maxMs` (the mean delay of its timers) in each of the last
 * LAGGING_SECONDS seconds; a second without any measurement (the loop blocked throughout) counts as lagging.
 */
function sustainedLag(maxMs: number): { lagging: () => boolean; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  let secondsOver = 0;
  const timer = setInterval(() => {
    const meanMs = histogram.count > 0 ? histogram.mean / 1e6 : Infinity;
    histogram.reset();
    secondsOver = meanMs > maxMs ? secondsOver + 1 : 0;
  }, 1_000);
  timer.unref();
  return {
    lagging: () => secondsOver >= LAGGING_SECONDS,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

/**
 * Heavy routes (HEAVY_ROUTES) wait for a place in a fair queue after their access guard (so the caller is
 * known) and before their handler; the place is given back when the answer is sent or the client is gone.
 * A request whose client left while it waited is not handled at all.
 */
function installFairQueues(app: FastifyInstance, config: Config): void {
  const queue = createFairQueue({
    perKey: config.HEAVY_JOBS_PER_USER,
    total: config.HEAVY_JOBS_TOTAL || availableParallelism(),
  });
  const heavy = new Set(HEAVY_ROUTES.map((r) => `${r.method} ${r.path}`));
  const places = new WeakMap<FastifyRequest, () => void>();
  const giveBack = async (req: FastifyRequest) => places.get(req)?.();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => heavy.has(`${m} ${route.url}`))) return;
    route.preHandler = [
      ...(route.preHandler ? [route.preHandler].flat() : []),
      async (req) => {
        places.set(req, await queue.acquire(req.auth?.subject ?? `ip:${req.ip}`));
        // The client left while it waited: the place goes on at once (the handler is skipped below).
        if (clientGone(req)) places.get(req)!();
      },
    ];
    route.onResponse = [...(route.onResponse ? [route.onResponse].flat() : []), giveBack];
    route.onRequestAbort = [...(route.onRequestAbort ? [route.onRequestAbort].flat() : []), giveBack];
  });
  // Last of all preHandlers (route-level ones run after this global one, so it is checked there too):
  // a writing request whose client is gone is not handled.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => WRITING_METHODS.has(m))) return;
    route.preHandler = [...(route.preHandler ? [route.preHandler].flat() : []), skipIfClientGone];
  });
}

/** 499, as nginx logs it: the client closed the request; nothing was applied. Nobody receives the answer. */
async function skipIfClientGone(req: FastifyRequest): Promise<void> {
  if (clientGone(req))
    throw new AppError(499, 'internal', 'The client closed the connection before the request was handled');
}
