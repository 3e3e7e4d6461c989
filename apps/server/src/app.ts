import { join } from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Fanout } from './adapters/fanout/fanout.js';
import { createInProcessFanout } from './adapters/fanout/inprocess.fanout.js';
import { createRedisFanout } from './adapters/fanout/redis.fanout.js';
import type { Mailer } from './adapters/mail/mailer.js';
import {
  createStorageFromConfig,
  loadMediaSecret,
  mediaOriginsFromConfig,
} from './adapters/storage/from-config.js';
import { roundedExpiry, type ObjectStorage } from './adapters/storage/storage.js';
import type { ActivitiesApi } from './modules/activities/activities.api.js';
import { createUploadCameras } from './modules/activities/activities.cameras.js';
import { createActivityMedia } from './modules/activities/activities.media.js';
import { createUploadProcessor, GROUPING_WINDOW_MS } from './modules/activities/activities.processing.js';
import { createActivityRenderer } from './modules/activities/activities.render.js';
import { createActivitiesRepository } from './modules/activities/activities.repository.js';
import { registerActivityRoutes } from './modules/activities/activities.routes.js';
import { createActivitiesService } from './modules/activities/activities.service.js';
import { registerActivityWorkers, scheduleActivityJobs } from './modules/activities/activities.workers.js';
import { createDisabledVisionEngine } from './adapters/vision/disabled.vision.js';
import type { VisionEngine } from './adapters/vision/vision.js';
import { createAdminGuard } from './modules/admin/admin.guard.js';
import { registerAdminRoutes } from './modules/admin/admin.routes.js';
import { createAccessGuards } from './modules/auth/auth.guard.js';
import { createAuthRepository } from './modules/auth/auth.repository.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { createCamerasRepository } from './modules/cameras/cameras.repository.js';
import { registerCameraRoutes } from './modules/cameras/cameras.routes.js';
import { createCamerasService } from './modules/cameras/cameras.service.js';
import { createUploadCredentialsService } from './modules/cameras/upload-credentials.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createOwnMediaCheck } from './modules/chat/chat.media.js';
import { createChatRepository } from './modules/chat/chat.repository.js';
import { registerChatRoutes } from './modules/chat/chat.routes.js';
import { createChatService } from './modules/chat/chat.service.js';
import { createHighlightsRepository } from './modules/highlights/highlights.repository.js';
import { registerHighlightsRoutes } from './modules/highlights/highlights.routes.js';
import { createHighlightsService } from './modules/highlights/highlights.service.js';
import { createActivityFrames } from './modules/analysis/activity-frames.js';
import { createAlertsRepository } from './modules/alerts/alerts.repository.js';
import { registerCorrectionRoutes } from './modules/alerts/corrections.routes.js';
import { createAlertsService } from './modules/alerts/alerts.service.js';
import { createEphemeralPurge } from './modules/alerts/amnesia-purge.js';
import {
  registerAlertsWorkers,
  requestRicherDescription,
  scheduleAlertsJobs,
} from './modules/alerts/alerts.jobs.js';
import { registerAnalysisWorker } from './modules/analysis/analysis.jobs.js';
import { createAnalysisRepository } from './modules/analysis/analysis.repository.js';
import { createAnalysisService } from './modules/analysis/analysis.service.js';
import { createAttachmentRefresher } from './modules/alerts/attachments.js';
import { createCorrectionsService } from './modules/alerts/corrections.service.js';
import { createLlmDescriber } from './modules/alerts/llm-sentence.js';
import { recognitionRules } from './modules/recognition/recognition.js';
import { activityPicture, createRicherDescriptions } from './modules/alerts/llm-rewrite.js';
import { extractFrames } from './modules/media/frames.js';
import { registerHighlightsWorkers, scheduleHighlightsJobs } from './modules/highlights/highlights.jobs.js';
import { createHighlightsWriter } from './modules/highlights/highlights.writer.js';
import { createLlmFromConfig } from './adapters/llm/from-config.js';
import { attachmentFor } from './modules/alerts/alert-message.js';
import { registerAssistantWorker } from './modules/assistant/assistant.jobs.js';
import { createAssistantRepository } from './modules/assistant/assistant.repository.js';
import { createAssistantService } from './modules/assistant/assistant.service.js';
import { createLlmSummarizer } from './modules/highlights/llm-summary.js';
import { createSignedUrlCache } from './modules/media/signed-urls.js';
import { createHub } from './modules/realtime/realtime.hub.js';
import { registerRealtimeRoutes } from './modules/realtime/realtime.routes.js';
import { createRealtimeService } from './modules/realtime/realtime.service.js';
import { createRealtimeTokens } from './modules/realtime/realtime.tokens.js';
import { createIdTokenSigner, createTokenVerifier, type SigningKey } from './modules/auth/tokens.js';
import { createSignupRepository } from './modules/signup/signup.repository.js';
import { registerSignupRoutes } from './modules/signup/signup.routes.js';
import { createSignupService } from './modules/signup/signup.service.js';
import { createFfmpeg } from './modules/media/ffmpeg.js';
import { createMediaTools } from './modules/media/tools.js';
import { deleteMediaOfDeletedUsers } from './modules/media/media.cleanup.js';
import { registerMediaRoutes } from './modules/media/media.routes.js';
import { createMediaSigner } from './modules/media/media.signer.js';
import { createBacklogGate } from './modules/ingest/ingest.backlog.js';
import { registerIngestWorkers, scheduleIngestJobs } from './modules/ingest/ingest.jobs.js';
import { createIngestRepository } from './modules/ingest/ingest.repository.js';
import { registerIngestRoutes } from './modules/ingest/ingest.routes.js';
import { createIngestService } from './modules/ingest/ingest.service.js';
import { createFaceEmbeddingsRepository } from './modules/recognition/face-embeddings.repository.js';
import { createFaceEmbeddingsService } from './modules/recognition/face-embeddings.service.js';
import { registerFaceEmbeddingsWorker } from './modules/recognition/face-embeddings.jobs.js';
import { createMemoriesRepository } from './modules/memories/memories.repository.js';
import { registerMemoryRoutes } from './modules/memories/memories.routes.js';
import { createMemoriesService } from './modules/memories/memories.service.js';
import { createNotificationsFromConfig } from './modules/notifications/notifications.from-config.js';
import { registerNotificationRoutes } from './modules/notifications/notifications.routes.js';
import type { NotificationsService } from './modules/notifications/notifications.service.js';
import { createSitesRepository } from './modules/sites/sites.repository.js';
import { registerSiteRoutes } from './modules/sites/sites.routes.js';
import { createSitesService } from './modules/sites/sites.service.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { registerUserRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/client.js';
import { createEventBus, type EventBus } from './platform/events.js';
import { createJobs, type Jobs } from './platform/jobs.js';
import { installErrorHandler, sendRouteNotFound } from './platform/http/error-handler.js';
import { OneLinePerRequest } from './platform/http/request-log.js';
import { installSecurityHeaders } from './platform/http/security-headers.js';
import { isAppRoute, serveWebApp } from './platform/http/web-app.js';
import type { Logger } from './platform/logger.js';
import { createRateLimiter } from './platform/rate-limiter.js';
import { createReadCaches } from './platform/read-cache.js';
import type { BackgroundTask } from './platform/scheduler.js';
import { createSecretBox, loadSecretsKey } from './platform/secrets.js';

export interface Limits {
  /** Per-IP calls a minute to the auth endpoints worth guessing at. */
  authPerIpPerMinute: number;
  /** Sign-in attempts per email address in 15 minutes. */
  signInPerEmail: number;
}

export const DEFAULT_LIMITS: Limits = { authPerIpPerMinute: 30, signInPerEmail: 10 };

/** Everything the server is built from; `main.ts` makes them from the config, tests from their own. */
export interface AppDeps {
  config: Config;
  log: Logger;
  database: Database;
  mailer: Mailer;
  signingKey: SigningKey;
  adminToken: string;
  /** Built web app to serve, if any. */
  webDistDir?: string | undefined;
  limits?: Limits;
  /** The in-process event bus; one is made when absent (tests pass their own to listen). */
  events?: EventBus;
  /** Realtime fan-out across instances; made from `REDIS_URL` (else in-process) when absent. */
  fanout?: Fanout;
  /** Object storage for media; made from the config (S3_* or DATA_DIR/media) when absent. */
  storage?: ObjectStorage;
  /** HMAC key of media URLs; read from MEDIA_SECRET or DATA_DIR/media.key when absent. */
  mediaSecret?: string;
  /** AES-256 key for secrets at rest; read from `SECRETS_KEY` or `DATA_DIR/secrets.key` when absent. */
  secretsKey?: Buffer;
  /** Push and SMS/MMS delivery; made from the config (`VAPID_*`, `FCM_*`, `APNS_*`, `TWILIO_*`) when absent. */
  notifications?: NotificationsService;
  /** Object and face detection; absent, nothing is ever detected (tests). `bootstrap.ts` makes the real one. */
  vision?: VisionEngine;
  /** Whether each user message gets the home sitter's answer (default); tests of the chat's own mechanics turn it off. */
  chatAnswers?: boolean;
  /** Whether new activities get the AI's analysis (default); tests of what processing itself stores turn it off. */
  analysis?: boolean;
}

/** Paths under which every call, known or not, needs a valid bearer token. */
const BEARER_ONLY_PREFIX = /^\/api\/(users|stripe)(\/|\?|$)/;

/** JSON bodies above this are refused with 413. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** The composition root: adapters and repositories wired into services and routes by plain arguments. */
export async function createServer(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const limits = deps.limits ?? DEFAULT_LIMITS;

  const app = Fastify({
    loggerInstance: deps.log,
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

  installSecurityHeaders(app, mediaOriginsFromConfig(config));
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

  // Repositories and services
  const events = deps.events ?? createEventBus(deps.log);
  // Closed last, after the jobs that use it have drained (onClose hooks run last-added first).
  const vision = deps.vision ?? createDisabledVisionEngine();
  app.decorate('vision', vision);
  app.addHook('onClose', () => vision.close());
  // ffmpeg and ffprobe: checked once at start (their versions logged, or one warning saying what to do).
  const mediaTools = createMediaTools({
    ffmpegPath: config.FFMPEG_PATH,
    ffprobePath: config.FFPROBE_PATH,
    log: deps.log,
  });
  app.addHook('onReady', async () => void mediaTools.check());

  // Durable jobs on the same database: workers start when the app is ready and drain on close.
  const jobs = createJobs({ database, log: deps.log });
  app.decorate('jobs', jobs as Jobs);
  app.addHook('onReady', async () => {
    // Every module has registered its workers by now: a job nobody works would pile up unseen.
    const missing = jobs.missingWorkers();
    if (missing.length > 0) throw new Error(`No worker for the job(s) ${missing.join(', ')} (job-map.ts)`);
    await jobs.start();
  });
  app.addHook('onClose', () => jobs.stop());
  const authRepo = createAuthRepository(database.db);
  const signup = createSignupService({
    repo: createSignupRepository(database.db),
    enabledByDefault: config.SIGNUP_ENABLED,
  });
  const auth = createAuthService({
    repo: authRepo,
    signIdToken: createIdTokenSigner(deps.signingKey, config.PUBLIC_URL),
    mailer: deps.mailer,
    publicUrl: config.PUBLIC_URL,
    isSignupEnabled: () => signup.isEnabled(),
    isVerificationExempt: (email) => config.VERIFICATION_EXEMPT_EMAILS.includes(email),
    signInLimiter: createRateLimiter({ max: limits.signInPerEmail, windowMs: 15 * 60_000 }),
    log: deps.log,
  });
  const users = createUsersService({
    repo: createUsersRepository(database.db),
    freeEvents: config.FREE_EVENTS,
    deleteLocalIdentity: (identityId) => auth.deleteIdentity(identityId),
    events,
  });
  const guards = createAccessGuards({
    verify: await createTokenVerifier(
      deps.signingKey,
      config.PUBLIC_URL,
      config.AUTH_JWKS_URL && config.AUTH_ISSUER
        ? { jwksUrl: config.AUTH_JWKS_URL, issuer: config.AUTH_ISSUER, audience: config.AUTH_AUDIENCE }
        : undefined,
    ),
    exemptEmails: config.VERIFICATION_EXEMPT_EMAILS,
    isLocalIdentityVerified: (identityId) => auth.isEmailVerified(identityId),
    admin: createAdminGuard(deps.adminToken),
  });
  const rateLimit = { max: limits.authPerIpPerMinute, timeWindow: 60_000 };
  const mediaSigner = createMediaSigner(
    deps.mediaSecret ?? loadMediaSecret(config.MEDIA_SECRET, config.DATA_DIR),
    config.PUBLIC_URL,
  );
  const storage = deps.storage ?? createStorageFromConfig(config, mediaSigner.url);
  deleteMediaOfDeletedUsers(events, storage, deps.log);
  const userRows = createUsersRepository(database.db);
  // Per-user list caches, on the embedded database only (one process): docs/architecture.md "Caching".
  const readCaches = createReadCaches({
    enabled: database.kind === 'pglite',
    events,
    lookupUserId: async (subject) => (await userRows.findBySubject(subject))?.id,
  });
  const memories = createMemoriesService({
    repo: createMemoriesRepository(database.db),
    storage,
    events,
    log: deps.log,
    urlTtlSeconds: config.MEDIA_URL_TTL,
    photoLimit: config.MEMORY_PHOTO_LIMIT,
    // Exact through invalidation; the entries' own lifetime (signing window, next expiry) is shorter.
    lists: readCaches.create({
      ttlMs: 60 * 60_000,
      weigh: (json) => json.byteLength,
      maxWeight: 32 * 2 ** 20,
    }),
  });
  // Every face in a people memory's photo becomes an example for recognition, in a durable job.
  const faceEmbeddings = createFaceEmbeddingsService({
    repo: createFaceEmbeddingsRepository(database.db),
    vision,
    storage,
    events,
    enqueue: (photo) => jobs.send('memory.learn-faces', photo),
    log: deps.log,
  });
  await registerFaceEmbeddingsWorker(jobs, faceEmbeddings);
  app.decorate('faceEmbeddings', faceEmbeddings);
  app.addHook('onClose', async () => faceEmbeddings.close());
  const backgroundTasks: BackgroundTask[] = [
    { name: 'memories.purge-expired', intervalMs: 60 * 60_000, run: () => memories.purgeExpired() },
  ];
  app.decorate('backgroundTasks', backgroundTasks);
  app.decorate('memories', memories);
  const secrets = createSecretBox(deps.secretsKey ?? loadSecretsKey(config.SECRETS_KEY, config.DATA_DIR));
  const camerasRepo = createCamerasRepository(database.db);
  const cameras = createCamerasService({
    repo: camerasRepo,
    secrets,
    events,
    userIdOf: readCaches.userIds.userIdOf,
    // Every write that changes the list drops the user's entry; the lifetime only bounds a mistake.
    lists: readCaches.create({
      ttlMs: 10 * 60_000,
      weigh: (json) => json.byteLength,
      maxWeight: 16 * 2 ** 20,
    }),
  });
  const uploadCredentials = createUploadCredentialsService({
    repo: camerasRepo,
    secrets,
    publicHost: config.PUBLIC_HOST,
    ftpPort: config.FTP_PORT,
    smtpPort: config.INGEST_SMTP_PORT,
  });
  // Camera ingest, receiving side: uploads by FTP and SMTP (servers started by main.ts) and HTTP are stored
  // and committed with their `ingest.process-upload` job before the camera hears "received".
  const ingest = createIngestService({
    repo: createIngestRepository(database.db),
    database,
    storage,
    jobs,
    log: deps.log,
    dataDir: config.DATA_DIR,
    maxBytes: config.INGEST_MAX_BYTES,
    orphanAgeSeconds: config.INGEST_ORPHAN_AGE_SECONDS,
    // Embedded only: there this process processes every upload it acknowledges (and hears when it is done).
    backlog: database.kind === 'pglite' ? createBacklogGate({ limit: config.INGEST_MAX_PENDING }) : undefined,
    // Embedded: committed uploads go straight to processing; their jobs are the fallback (see the service).
    handOff:
      database.kind === 'pglite'
        ? (ids) => {
            for (const id of ids)
              uploadProcessor.process(id).catch((err: unknown) => {
                deps.log.warn({ err, uploadId: id }, 'camera upload not processed yet; its job will retry');
              });
          }
        : undefined,
  });
  const verifyUploadLogin = (username: string, password: string) =>
    uploadCredentials.verifyUploadCredentials(username, password);
  app.decorate('ingest', { service: ingest, verifyUploadLogin });
  await registerIngestWorkers(jobs, { ingest, log: deps.log });
  app.addHook('onReady', () => scheduleIngestJobs(jobs));
  const sitesRepo = createSitesRepository(database.db);
  const sites = createSitesService({
    repo: sitesRepo,
    memories: { associateAllMemories: (userId, siteId) => memories.associateAllMemories(userId, siteId) },
    events,
  });
  const realtime = await createRealtimeService({
    hub: createHub({ log: deps.log }),
    fanout:
      deps.fanout ??
      (config.REDIS_URL ? createRedisFanout(config.REDIS_URL, deps.log) : createInProcessFanout()),
    tokens: await createRealtimeTokens(deps.signingKey, config.PUBLIC_URL),
    events,
    log: deps.log,
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 64 * 1024 },
    // Clients hear "you may reconnect" before their socket closes, so they move to a running instance.
    preClose: async () => {
      await realtime.close();
      for (let i = 0; i < 20 && app.websocketServer.clients.size > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      for (const client of app.websocketServer.clients) client.terminate();
      await new Promise<void>((resolve) => app.websocketServer.close(() => resolve()));
    },
  });
  const alertsRepo = createAlertsRepository(database.db);
  const chat = createChatService({
    repo: createChatRepository(database.db),
    userIdOf: readCaches.userIds.userIdOf,
    // Attachments get fresh links on every read, so a page only changes with its messages.
    newestPages: readCaches.create({
      ttlMs: 10 * 60_000,
      weigh: (p) => (p.json?.byteLength ?? 0) + Buffer.byteLength(JSON.stringify(p.messages)),
      maxWeight: 16 * 2 ** 20,
    }),
    realtime,
    isOwnMediaUrl: createOwnMediaCheck(config.PUBLIC_URL, (key, exp, sig) =>
      mediaSigner.check(key, exp, sig),
    ),
    // Every question gets its answer: the job commits with the message.
    onUserMessage:
      deps.chatAnswers === false ? undefined : (message, tx) => jobs.send('ai.answer', message, { tx }),
    // Alerts and answers keep their clips' URLs; history hands out fresh ones (signed URLs expire).
    refreshAttachments: createAttachmentRefresher({
      repo: alertsRepo,
      media: (row) => activityRenderer.render(row),
    }),
  });
  const highlightsRepo = createHighlightsRepository(database.db);
  const summaryMedia = {
    file: createSignedUrlCache({
      sign: (key, ttl) => storage.signedUrl(key, ttl),
      urlTtlSeconds: config.MEDIA_URL_TTL,
      now: () => new Date(),
    }).url,
    playlist: createSignedUrlCache({
      sign: (key, ttl) => mediaSigner.url(key, roundedExpiry(ttl)),
      urlTtlSeconds: config.MEDIA_URL_TTL,
      now: () => new Date(),
    }).url,
  };
  const highlights = createHighlightsService({ repo: highlightsRepo, users, media: summaryMedia });
  app.decorate('realtime', realtime);
  app.decorate('chat', chat);
  const notifications =
    deps.notifications ?? createNotificationsFromConfig(config, { db: database.db, log: deps.log });
  app.decorate('notifications', notifications);
  app.addHook('onClose', () => notifications.close());

  // Camera events: uploads become activities (ingest.process-upload), read, deleted and purged here.
  const activitiesRepo = createActivitiesRepository(database.db);
  const activityRenderer = createActivityRenderer({
    storage,
    // Playlists always go through the media route, which signs their segments (filesystem or S3).
    signPlaylist: (key, ttl) => mediaSigner.url(key, roundedExpiry(ttl)),
    urlTtlSeconds: config.MEDIA_URL_TTL,
    now: () => new Date(),
  });
  const activities = createActivitiesService({
    repo: activitiesRepo,
    renderer: activityRenderer,
    storage,
    events,
    retentionDays: config.RETENTION_DAYS,
    log: deps.log,
  });
  const uploadProcessor = createUploadProcessor({
    repo: activitiesRepo,
    cameras: createUploadCameras({ repo: camerasRepo, events, quietMs: GROUPING_WINDOW_MS }),
    media: createActivityMedia({
      storage,
      ffmpeg: createFfmpeg({ ffmpegPath: mediaTools.ffmpegPath, ffprobePath: mediaTools.ffprobePath }),
      onToolMissing: mediaTools.reportMissing,
    }),
    storage,
    jobs,
    events,
    renderer: activityRenderer,
    publish: (userId, event) => realtime.publish(userId, 'ActivityCreated', event),
    billingEnabled: config.BILLING_ENABLED,
    aloneConcurrency: config.INGEST_WORKERS,
    onSettled: (uploadId) => ingest.uploadSettled(uploadId),
    log: deps.log,
  });
  await registerActivityWorkers(jobs, { processor: uploadProcessor, activities });
  app.addHook('onReady', () => scheduleActivityJobs(jobs));
  app.decorate('activities', {
    releaseHeld: (userId) => uploadProcessor.releaseHeld(userId),
    deleteActivities: (refs) => activities.deleteActivities(refs),
    processUpload: (uploadId) => uploadProcessor.process(uploadId),
  } satisfies ActivitiesApi);

  // The home sitter's language: chat answers (`ai.answer`, sent with the user's message) and highlights.
  const llm = createLlmFromConfig(config);
  const assistant = createAssistantService({
    repo: createAssistantRepository(database.db),
    chat,
    memories,
    notify: (userId, notification) => notifications.notify(userId, notification),
    attachment: async (row) => attachmentFor(row, await activityRenderer.render(row)),
    // Replies to alerts ("that's Rose") are corrections first; called only once the app runs.
    corrections: { applyChatCorrection: (...args) => corrections.applyChatCorrection(...args) },
    llm,
    log: deps.log,
  });
  await registerAssistantWorker(jobs, { assistant });
  const highlightsWriter = createHighlightsWriter({
    repo: highlightsRepo,
    log: deps.log,
    summarizer: llm && createLlmSummarizer({ llm, log: deps.log }),
  });
  await registerHighlightsWorkers(jobs, { writer: highlightsWriter });
  app.addHook('onReady', () => scheduleHighlightsJobs(jobs));
  app.decorate('highlightsWriter', highlightsWriter);

  // The AI home sitter: every activity is looked at (`activity.analyse`, sent with the activity), alerts go to
  // the chat and to the user's devices, corrections teach the recogniser, amnesia-mode events are purged.
  const alerts = createAlertsService({
    repo: alertsRepo,
    chat,
    notify: (userId, notification) => notifications.notify(userId, notification),
    media: (row) => activityRenderer.render(row),
    requestRicherDescription: llm ? requestRicherDescription(jobs) : undefined,
    log: deps.log,
  });
  const analysis = createAnalysisService({
    repo: createAnalysisRepository(database.db),
    vision,
    frames: createActivityFrames({
      storage,
      extractFrames: (clip, count) => extractFrames(clip, count, { ffmpegPath: mediaTools.ffmpegPath }),
      maxBytes: config.INGEST_MAX_BYTES,
      onToolMissing: mediaTools.reportMissing,
      log: deps.log,
    }),
    recognition: recognitionRules,
    faceExamples: faceEmbeddings,
    alerts,
    log: deps.log,
  });
  const corrections = createCorrectionsService({ repo: alertsRepo, faceExamples: faceEmbeddings, alerts });
  await registerAnalysisWorker(jobs, {
    analysis: deps.analysis === false ? undefined : analysis,
    concurrency: config.AI_CONCURRENCY,
  });
  await registerAlertsWorkers(jobs, {
    richer:
      llm &&
      createRicherDescriptions({
        repo: alertsRepo,
        describer: createLlmDescriber({ llm, log: deps.log }),
        image: activityPicture(storage),
        alerts,
      }),
    purge: createEphemeralPurge({
      repo: alertsRepo,
      chat,
      alerts,
      deleteActivity: async (userId, id) => void (await activities.deleteActivities([{ userId, id }])),
      log: deps.log,
    }),
    log: deps.log,
  });
  app.addHook('onReady', () => scheduleAlertsJobs(jobs));
  app.decorate('corrections', corrections);

  // Routes
  app.get('/healthz', { schema: { hide: true } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const [ready, tools] = await Promise.all([database.ping(), mediaTools.report()]);
    if (!ready)
      return reply.status(503).send({ success: false, code: 'internal', message: 'Database unreachable' });
    // Without ffmpeg the server still takes every upload (clips are kept as sent): ready, but it says what lacks.
    const missing = Object.values(tools).filter((t) => t.error);
    return {
      success: true,
      data: {
        status: missing.length ? 'degraded' : 'ready',
        media_tools: Object.fromEntries(
          Object.entries(tools).map(([name, t]) => [
            name,
            { path: t.path, version: t.version, error: t.error },
          ]),
        ),
      },
    };
  });
  registerAuthRoutes(app, { auth, guards, signingKey: deps.signingKey, rateLimit });
  registerSignupRoutes(app, { signup, guards, rateLimit });
  registerUserRoutes(app, { users, guards });
  registerMediaRoutes(app, { storage, signer: mediaSigner, urlTtlSeconds: config.MEDIA_URL_TTL });
  await registerMemoryRoutes(app, {
    memories,
    guards,
    maxImageBytes: config.MAX_IMAGE_BYTES,
    spoolDir: join(config.DATA_DIR, 'photo-spool'),
  });
  registerCameraRoutes(app, { cameras, uploadCredentials, guards });
  await registerIngestRoutes(app, {
    ingest,
    verify: verifyUploadLogin,
    guards,
    maxBytes: config.INGEST_MAX_BYTES,
  });
  registerSiteRoutes(app, { sites, guards });
  registerAdminRoutes(app, { signup, guards });
  registerRealtimeRoutes(app, { realtime, users, guards });
  registerChatRoutes(app, { chat, guards });
  registerHighlightsRoutes(app, { highlights, guards });
  registerNotificationRoutes(app, { notifications, guards });
  registerActivityRoutes(app, { activities, guards });
  registerCorrectionRoutes(app, { corrections, users, guards });

  // The web app, with history fallback for every non-API GET
  const fallback = deps.webDistDir ? await serveWebApp(app, deps.webDistDir) : undefined;
  app.setNotFoundHandler(async (req, reply) => {
    // Account and billing paths say nothing, not even "no such call", to a caller without a valid token.
    if (BEARER_ONLY_PREFIX.test(req.url))
      for (const guard of guards.bearer) await guard.call(app, req, reply);
    return fallback && isAppRoute(req) ? fallback(req, reply) : sendRouteNotFound(req, reply);
  });

  return app;
}
