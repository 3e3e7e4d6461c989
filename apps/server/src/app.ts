import type { FastifyInstance } from 'fastify';
import { mediaOriginsFromConfig } from './adapters/storage/from-config.js';
import { buildModules, type AppDeps } from './build-modules.js';
import { sendRouteNotFound } from './platform/http/error-handler.js';
import { registerHealthRoutes } from './platform/http/health.js';
import type { AccessGuards } from './platform/http/route.js';
import { createHttpServer } from './platform/http/server.js';
import { isAppRoute, serveWebApp } from './platform/http/web-app.js';
import { createJobs } from './platform/jobs.js';
import { jobSettingsFromConfig } from './platform/job-settings.js';
import type { ModuleContext } from './platform/module.js';

export type { AppDeps } from './build-modules.js';

/** Paths under which every call, known or not, needs a valid bearer token. */
const BEARER_ONLY_PREFIX = /^\/api\/(users|stripe)(\/|\?|$)/;

export type Server = Awaited<ReturnType<typeof createServer>>;

/**
 * The composition root: the modules are built from the shared context in the order of their dependence
 * (build-modules.ts), then their routes, job workers and schedules are mounted. `modules` answers each
 * module's `api`, for main.ts and tests.
 */
export async function createServer(deps: AppDeps) {
  const { config, log, database, events, storage } = deps;
  const app = await createHttpServer(config, log, mediaOriginsFromConfig(config));
  const jobs = createJobs({ database, log, ...jobSettingsFromConfig(config) });
  const context: ModuleContext = { config, log, database, events, jobs, storage };

  const { all, apis } = await buildModules(context, deps);
  registerHealthRoutes(app, {
    ping: () => database.ping(),
    mediaTools: () => apis.media.report(),
    isOperator: apis.auth.isAdmin,
  });
  const http = {
    guards: apis.auth.guards,
    rateLimit: { max: deps.limits.authPerIpPerMinute, timeWindow: 60_000 },
  };
  // Mounted in the order built: routes, job workers (all before the app is ready), schedules once it is.
  for (const module of all) await module.routes?.(app, http);
  for (const module of all) await module.workers?.(jobs);
  app.addHook('onReady', async () => {
    for (const module of all) await module.ready?.();
    // A job nobody works would pile up unseen.
    const missing = jobs.missingWorkers();
    if (missing.length > 0) throw new Error(`No worker for the job(s) ${missing.join(', ')} (job-map.ts)`);
    await jobs.start();
    for (const module of all) await module.schedule?.(jobs);
  });
  // onClose hooks run last-added first: the modules' resources are released after the jobs have drained.
  app.addHook('onClose', async () => {
    for (const module of [...all].reverse()) await module.close?.();
  });
  app.addHook('onClose', () => jobs.stop());
  await mountWebApp(app, deps.webDistDir, http.guards.bearer);

  return { app, jobs, modules: apis };
}

/** The web app, with history fallback for every non-API GET; everything else unknown is a 404 envelope. */
async function mountWebApp(
  app: FastifyInstance,
  webDistDir: string | undefined,
  bearer: AccessGuards['bearer'],
): Promise<void> {
  const fallback = webDistDir ? await serveWebApp(app, webDistDir) : undefined;
  app.setNotFoundHandler(async (req, reply) => {
    // Account and billing paths say nothing, not even "no such call", to a caller without a valid token.
    if (BEARER_ONLY_PREFIX.test(req.url)) for (const guard of bearer) await guard.call(app, req, reply);
    return fallback && isAppRoute(req) ? fallback(req, reply) : sendRouteNotFound(req, reply);
  });
}
