import type { FastifyInstance } from 'fastify';
import { mediaOriginsFromConfig } from './adapters/storage/from-config.js';
import type { Adapters } from './bootstrap.js';
import { buildModules } from './build-modules.js';
import type { NotificationsService } from './modules/notifications/notifications.service.js';
import type { CameraPipeFactory } from './modules/streams/streams.pipe.js';
import { sendRouteNotFound } from './platform/http/error-handler.js';
import { registerHealthRoutes } from './platform/http/health.js';
import type { AccessGuards } from './platform/http/route.js';
import { createHttpServer } from './platform/http/server.js';
import { isAppRoute, serveWebApp } from './platform/http/web-app.js';
import { createJobs } from './platform/jobs.js';
import { jobSettingsFromConfig } from './platform/job-settings.js';
import type { ModuleContext } from './platform/module.js';

/** The adapters (`bootstrap.ts`), and switches tests use to look at one part alone. */
export interface AppDeps extends Adapters {
  /** Push and SMS/MMS delivery instead of the configured one (`VAPID_*`, `FCM_*`, `APNS_*`, `TWILIO_*`). */
  notifications?: NotificationsService;
  /** Whether each user message gets the home sitter's answer (default); tests of the chat's own mechanics turn it off. */
  chatAnswers?: boolean;
  /** Whether new activities get the AI's analysis (default); tests of what processing itself stores turn it off. */
  analysis?: boolean;
  /** Stands in for the stream cameras' ffmpeg pipes (tests of the streams module's rules). */
  createStreamPipe?: CameraPipeFactory;
  /** Stands in for the 30 s a desktop helper's live relay goes on without viewers (tests). */
  helperLiveLingerMs?: number;
  /** The clock of billing's refund preview (tests share it with their fake Stripe). */
  billingNow?: () => Date;
}

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
  registerHealthRoutes(app, { ping: () => database.ping(), mediaTools: () => apis.media.report() });
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
