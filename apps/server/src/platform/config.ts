import { resolve } from 'node:path';
import { DEFAULT_SERVER_CAMERA_NETWORKS } from '@homesitter/cameras';
import { z } from 'zod';
import { isLoopbackHost, lanAddress } from './lan-address.js';

/**
 * Every environment variable the server reads, declared once: name, schema, default and a one-line doc.
 * `npm run docs:config` renders this list into the README's configuration table.
 */
interface Setting<S extends z.ZodType> {
  schema: S;
  /** Shown in the README; `undefined` means "unset". */
  default: string | undefined;
  doc: string;
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
const optionalUrl = z
  .union([z.literal(''), z.url()])
  .optional()
  .transform((v) => (v ? v : undefined));
const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );

function setting<S extends z.ZodType>(schema: S, defaultValue: string | undefined, doc: string): Setting<S> {
  return { schema, default: defaultValue, doc };
}

export const settings = {
  PORT: setting(z.coerce.number().int().min(0).max(65535), '8080', 'HTTP port of the API and web app'),
  HOST: setting(z.string().min(1), '0.0.0.0', 'Interface the HTTP server listens on'),
  DATA_DIR: setting(z.string().min(1), './data', 'Where the embedded database, keys, outbox and media live'),
  PUBLIC_URL: setting(
    optionalUrl,
    undefined,
    'Public address of the app, used in mailed links (default `http://localhost:PORT`)',
  ),
  DATABASE_URL: setting(
    optionalString,
    undefined,
    'PostgreSQL connection string; unset runs the embedded PGlite in `DATA_DIR/db`',
  ),
  SMTP_URL: setting(
    optionalString,
    undefined,
    'Outgoing mail, e.g. `smtp://user:pass@smtp.example.com:587`; unset writes mails to `DATA_DIR/outbox`',
  ),
  MAIL_FROM: setting(z.string().min(3), 'Homesitter <no-reply@homesitter.local>', 'Sender of outgoing mail'),
  SIGNUP_ENABLED: setting(
    bool,
    'true',
    'Whether new accounts may sign up (until changed with `npm run admin -- signup on|off`)',
  ),
  VERIFICATION_EXEMPT_EMAILS: setting(
    commaList,
    '',
    'Comma-separated emails that may use the app without verifying their address (test accounts)',
  ),
  FREE_EVENTS: setting(
    z.coerce.number().int().min(0),
    '100',
    'Motion events a new user gets before subscribing',
  ),
  AUTH_PRIVATE_KEY: setting(
    optionalString,
    undefined,
    'Ed25519 private key (PKCS#8 PEM) that signs ID tokens; unset generates one into `DATA_DIR/auth-key.pem`',
  ),
  AUTH_JWKS_URL: setting(
    optionalUrl,
    undefined,
    'JWKS of an external OIDC issuer (Firebase Auth, Keycloak…) whose tokens are accepted too',
  ),
  AUTH_ISSUER: setting(optionalString, undefined, '`iss` of the external issuer (with `AUTH_JWKS_URL`)'),
  AUTH_AUDIENCE: setting(optionalString, undefined, '`aud` of the external issuer (with `AUTH_JWKS_URL`)'),
  ADMIN_TOKEN: setting(
    optionalString,
    undefined,
    'Secret for `npm run admin`; unset generates one into `DATA_DIR/admin-token`',
  ),
  AUTH_RATE_LIMIT_PER_MINUTE: setting(
    z.coerce.number().int().min(1),
    '30',
    'Calls a minute one IP address may make to sign-up, sign-in, verification and password reset',
  ),
  TRUST_PROXY: setting(bool, 'false', 'Trust `X-Forwarded-*` headers (set behind a load balancer)'),
  NATIVE_APP_ORIGINS: setting(
    commaList.refine(
      (list) => list.every((o) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+\/?$/.test(o)),
      'each entry must be an origin, scheme and host only (e.g. capacitor://localhost)',
    ),
    'capacitor://localhost,https://localhost',
    'Comma-separated origins allowed to call the API cross-origin (CORS, no credentials): the iOS and Android apps, which show the bundled web app from `capacitor://localhost` and `https://localhost` (docs/mobile.md). Empty = none',
  ),
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: setting(
    z.coerce.number().int().min(0),
    '1000',
    'Load shedding: while the event loop lags more than this (mean of each second, two seconds in a row), API calls are answered 503 with `Retry-After` (health checks never). 0 = off',
  ),
  OVERLOAD_MAX_HEAP_USED_MB: setting(
    z.coerce.number().int().min(0).optional(),
    undefined,
    'Load shedding: while the JavaScript heap in use is above this many MB, API calls are answered 503 (default 90% of the heap limit). 0 = off',
  ),
  OVERLOAD_RETRY_AFTER_SECONDS: setting(
    z.coerce.number().int().min(1).max(3600),
    '10',
    '`Retry-After` of an answer shed under load',
  ),
  HEAVY_JOBS_PER_USER: setting(
    z.coerce.number().int().min(1).max(16),
    '1',
    "Photo uploads (decode and re-encode) of one user handled at once; the user's others wait, other users' go first",
  ),
  HEAVY_JOBS_TOTAL: setting(
    z.coerce.number().int().min(0).max(64),
    '0',
    'Photo uploads handled at once over all users; 0 = the number of CPU cores',
  ),
  SHUTDOWN_GRACE_SECONDS: setting(
    z.coerce.number().min(0).max(60),
    '2',
    'On SIGTERM, open HTTP keep-alive connections are kept at least this long, answering 503 + `Connection: close`, before they are closed',
  ),
  SHUTDOWN_TIMEOUT_SECONDS: setting(
    z.coerce.number().int().min(1).max(600),
    '25',
    'On SIGTERM, uploads and requests still running after this long are cut off and the process exits 1',
  ),
  LOG_LEVEL: setting(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
    'pino log level',
  ),
  WEB_DIST_DIR: setting(optionalString, undefined, 'Built web app to serve (default `apps/web/dist`)'),
  MEDIA_URL_TTL: setting(
    z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600),
    '3600',
    'Seconds a signed media URL (memory photos…) stays valid',
  ),
  MEDIA_SECRET: setting(
    optionalString,
    undefined,
    'HMAC key that signs media URLs served by this server; unset generates `DATA_DIR/media.key`',
  ),
  MAX_IMAGE_BYTES: setting(
    z.coerce.number().int().min(1024),
    String(15 * 1024 * 1024),
    'Largest image upload in bytes (15 MB); larger answers 413',
  ),
  MEMORY_PHOTO_LIMIT: setting(z.coerce.number().int().min(1).max(100), '10', 'Photos a memory may hold'),
  S3_BUCKET: setting(
    optionalString,
    undefined,
    'S3-compatible bucket for media; unset stores files in `DATA_DIR/media`',
  ),
  S3_REGION: setting(z.string().min(1), 'us-east-1', 'Region of `S3_BUCKET`'),
  S3_ENDPOINT: setting(optionalUrl, undefined, 'S3-compatible endpoint (MinIO, R2…); unset means AWS S3'),
  S3_ACCESS_KEY_ID: setting(
    optionalString,
    undefined,
    'Access key for `S3_BUCKET` (unset: the AWS default chain)',
  ),
  S3_SECRET_ACCESS_KEY: setting(optionalString, undefined, 'Secret key for `S3_BUCKET`'),
  S3_FORCE_PATH_STYLE: setting(
    bool,
    'false',
    'Path-style bucket addressing (most S3-compatible servers need it)',
  ),
  S3_PREFIX: setting(optionalString, undefined, 'Folder inside `S3_BUCKET` to keep every key under'),
  REDIS_URL: setting(
    optionalString,
    undefined,
    'Redis for realtime fan-out across server instances, e.g. `redis://127.0.0.1:6379`; unset fans out in-process',
  ),
  SECRETS_KEY: setting(
    optionalString,
    undefined,
    'AES-256 key (32 bytes, base64 or hex) that encrypts camera logins; unset generates `DATA_DIR/secrets.key`',
  ),
  PUBLIC_HOST: setting(
    optionalString,
    undefined,
    "Host name cameras upload to over FTP and email (default: the host of `PUBLIC_URL`, or this machine's LAN address when that is localhost)",
  ),
  FTP_PORT: setting(
    z.coerce.number().int().min(0).max(65535),
    '2121',
    'Port of the camera FTP upload server',
  ),
  INGEST_SMTP_PORT: setting(
    z.coerce.number().int().min(0).max(65535),
    '2525',
    'Port of the SMTP server cameras mail their clips to',
  ),
  INGEST_ENABLED: setting(
    bool,
    'true',
    'Start the camera FTP and SMTP upload servers with the API (HTTP uploads are always served)',
  ),
  INGEST_MAX_BYTES: setting(
    z.coerce.number().int().min(1024),
    String(25 * 1024 * 1024),
    'Largest camera upload (one file or one mail) in bytes (25 MB); larger is refused',
  ),
  FTP_PASV_MIN: setting(
    z.coerce.number().int().min(1024).max(65535),
    '30000',
    'First port of the FTP passive data range (open it in the firewall with `FTP_PORT`)',
  ),
  FTP_PASV_MAX: setting(
    z.coerce.number().int().min(1024).max(65535),
    '30049',
    'Last port of the FTP passive data range',
  ),
  FTP_PUBLIC_HOST: setting(
    optionalString,
    undefined,
    'IPv4 address (or name resolving to it) cameras reach for FTP passive data (default: `PUBLIC_HOST` when set, else the address each camera connected to; cameras on this machine always get the latter)',
  ),
  FTP_PASV_PER_USER: setting(
    z.coerce.number().int().min(1),
    '20',
    'FTP passive data ports one camera upload login may hold at once over all its sessions (each session holds one at most); more get 425',
  ),
  FTP_PASV_PER_ADDRESS: setting(
    z.coerce.number().int().min(1),
    '30',
    'FTP passive data ports the sessions from one client address may hold at once; more get 425',
  ),
  FTP_TLS_CERT: setting(
    optionalString,
    undefined,
    'PEM certificate file for explicit FTP over TLS (AUTH TLS); with `FTP_TLS_KEY`',
  ),
  FTP_TLS_KEY: setting(optionalString, undefined, 'PEM private key file of `FTP_TLS_CERT`'),
  INGEST_SMTP_TLS_CERT: setting(
    optionalString,
    undefined,
    'PEM certificate file for STARTTLS on the camera SMTP server; with `INGEST_SMTP_TLS_KEY`',
  ),
  INGEST_SMTP_TLS_KEY: setting(optionalString, undefined, 'PEM private key file of `INGEST_SMTP_TLS_CERT`'),
  INGEST_ORPHAN_AGE_SECONDS: setting(
    z.coerce.number().int().min(1),
    '300',
    'Stored upload files without a database row (an upload cut off by a crash) older than this are removed',
  ),
  INGEST_MAX_PENDING: setting(
    z.coerce.number().int().min(0),
    '16',
    'Embedded database: acknowledged camera uploads waiting for processing at most; more wait (up to 5 s) for their acknowledgement. 0 = no limit',
  ),
  INGEST_WORKERS: setting(
    z.coerce.number().int().min(1).max(32),
    '2',
    'Camera clips processed at once per server instance (poster, HLS; snapshots are processed in rounds)',
  ),
  CAMERA_NETWORKS: setting(
    z.string(),
    DEFAULT_SERVER_CAMERA_NETWORKS,
    "Networks (CIDR, comma-separated) this server may connect to for RTSP/ONVIF cameras; empty: none (a cloud server, cameras come through the desktop helper). Loopback, link-local and the server's own addresses count only when listed themselves (e.g. 127.0.0.0/8); cloud metadata addresses never",
  ),
  STREAMS_ENABLED: setting(
    bool,
    'true',
    'Whether this instance pulls, records and serves the stream cameras (run it on exactly one instance of a deployment)',
  ),
  STREAM_PRE_EVENT_SECONDS: setting(
    z.coerce.number().int().min(0).max(30),
    '3',
    'Seconds of video before motion that a stream camera clip starts with',
  ),
  STREAM_TAIL_SECONDS: setting(
    z.coerce.number().int().min(1).max(60),
    '5',
    'Seconds of video after motion ends that a stream camera clip goes on for',
  ),
  STREAM_MAX_CLIP_SECONDS: setting(
    z.coerce.number().int().min(10).max(600),
    '60',
    'Longest stream camera clip; longer motion makes consecutive clips',
  ),
  HELPER_DOWNLOADS_DIR: setting(
    optionalString,
    undefined,
    "Desktop helper builds to hand out at `/api/helper/downloads` (files `homesitter-helper-<os>-<arch>[.exe]`; default `apps/helper/dist`); the server's own OS's is built into `DATA_DIR/helper-builds` when missing here",
  ),
  FFMPEG_PATH: setting(
    optionalString,
    undefined,
    'The ffmpeg that makes clip posters and HLS (a name on `PATH` or a full path); unset uses the build `npm ci` installs (@ffmpeg-installer/ffmpeg)',
  ),
  FFPROBE_PATH: setting(
    optionalString,
    undefined,
    'The ffprobe that reads clip duration, size and codec (a name on `PATH` or a full path); unset uses the build `npm ci` installs (@ffprobe-installer/ffprobe)',
  ),
  BILLING_ENABLED: setting(
    bool.optional(),
    undefined,
    'Limit users without a subscription to their free motion events; off means no limits (default: on when `STRIPE_SECRET_KEY` is set)',
  ),
  STRIPE_SECRET_KEY: setting(
    optionalString,
    undefined,
    'Stripe secret key (`sk_live_…`, `sk_test_…`); unset: the payment calls answer 503 (docs/billing.md)',
  ),
  STRIPE_PUBLISHABLE_KEY: setting(
    optionalString,
    undefined,
    "Stripe publishable key (`pk_…`) the in-app payment dialog loads Stripe's card element with",
  ),
  STRIPE_WEBHOOK_SECRET: setting(
    optionalString,
    undefined,
    'Signing secret (`whsec_…`) of the webhook endpoint `POST /api/stripe/webhook`',
  ),
  STRIPE_PRICE_MONTHLY: setting(optionalString, undefined, 'Stripe price id (`price_…`) of the monthly plan'),
  STRIPE_PRICE_YEARLY: setting(optionalString, undefined, 'Stripe price id (`price_…`) of the yearly plan'),
  STRIPE_API_BASE: setting(
    z.url(),
    'https://api.stripe.com',
    "Stripe API address (split into the SDK's host, port and protocol); tests point it at a local fake",
  ),
  NEST_PROJECT_ID: setting(
    optionalString,
    undefined,
    'Device Access project id of Google Nest cameras (docs/nest.md); unset: the app says this server is not set up for Nest',
  ),
  NEST_CLIENT_ID: setting(
    optionalString,
    undefined,
    'OAuth client id of the Google Cloud project the Device Access project is linked to',
  ),
  NEST_CLIENT_SECRET: setting(optionalString, undefined, 'OAuth client secret of `NEST_CLIENT_ID`'),
  NEST_PUBSUB_SUBSCRIPTION: setting(
    optionalString.refine((v) => v === undefined || /^projects\/[^/]+\/subscriptions\/[^/]+$/.test(v), {
      message: 'must be projects/<project>/subscriptions/<subscription>',
    }),
    undefined,
    'Pull subscription of the Nest events topic, `projects/P/subscriptions/S`',
  ),
  NEST_PUBSUB_CREDENTIALS: setting(
    optionalString,
    undefined,
    "Service-account JSON file that pulls `NEST_PUBSUB_SUBSCRIPTION`; unset: the linked users' own tokens (pubsub scope)",
  ),
  NEST_AUTH_URL: setting(
    z.url(),
    'https://nestservices.google.com/partnerconnections',
    "Google's Partner Connections Manager (the consent page); tests point it at a local fake",
  ),
  NEST_TOKEN_URL: setting(
    z.url(),
    'https://oauth2.googleapis.com/token',
    "Google's OAuth token endpoint; tokens are revoked at `revoke` beside it",
  ),
  NEST_API_URL: setting(
    z.url(),
    'https://smartdevicemanagement.googleapis.com/v1',
    'Smart Device Management API of Nest devices',
  ),
  NEST_PUBSUB_URL: setting(z.url(), 'https://pubsub.googleapis.com/v1', 'Cloud Pub/Sub REST API'),
  RETENTION_DAYS: setting(
    z.coerce.number().int().min(1).max(3650),
    '30',
    'Days activities, their media and camera uploads are kept before the daily purge',
  ),
  NOTIFY_TIMEOUT_MS: setting(
    z.coerce.number().int().min(100).max(120_000),
    '10000',
    'Milliseconds one push or SMS provider call may take before the alert moves on without it',
  ),
  NOTIFY_RETRY_DELAY_SECONDS: setting(
    z.coerce.number().int().min(1).max(600),
    '30',
    "Seconds before an alert's failed push or SMS (provider down) is tried again; each later try waits about twice as long",
  ),
  NOTIFY_RETRY_WINDOW_SECONDS: setting(
    z.coerce
      .number()
      .int()
      .min(60)
      .max(6 * 3600),
    '3600',
    "How long an alert's failed push or SMS keeps being tried; an alert older than this is stale and dropped",
  ),
  JOB_EXPIRE_UPLOAD_SECONDS: setting(
    z.coerce.number().int().min(1).max(3600),
    '180',
    'Seconds an `activities.process-upload` job may run before it counts as cut off (a crashed instance) and runs again',
  ),
  JOB_EXPIRE_ANALYSIS_SECONDS: setting(
    z.coerce.number().int().min(1).max(3600),
    '600',
    'Seconds an `analysis.analyse` job may run before it counts as cut off (a crashed instance) and runs again',
  ),
  JOB_MAINTENANCE_SECONDS: setting(
    z.coerce.number().int().min(1).max(3600),
    '30',
    'How often (seconds) one instance checks the job queue for expired jobs (PostgreSQL; embedded retries them at start)',
  ),
  VAPID_PUBLIC_KEY: setting(
    optionalString,
    undefined,
    'Web Push VAPID public key (base64url); unset generates a key pair once into `DATA_DIR/vapid.json`',
  ),
  VAPID_PRIVATE_KEY: setting(
    optionalString,
    undefined,
    'Web Push VAPID private key (with `VAPID_PUBLIC_KEY`)',
  ),
  VAPID_SUBJECT: setting(
    optionalString,
    undefined,
    'Contact for push services, `mailto:` or `https:` (default: `PUBLIC_URL` when https, else `MAIL_FROM`)',
  ),
  FCM_PROJECT_ID: setting(optionalString, undefined, 'Firebase project id for FCM HTTP v1 (Android push)'),
  FCM_CLIENT_EMAIL: setting(optionalString, undefined, 'Service account `client_email` allowed to send FCM'),
  FCM_PRIVATE_KEY: setting(
    optionalString,
    undefined,
    'Service account `private_key` (PEM; `\\n` escapes allowed); unset with the two above: no FCM',
  ),
  FCM_SERVICE_ACCOUNT_FILE: setting(
    optionalString,
    undefined,
    'Service account JSON file instead of the three `FCM_*` fields above',
  ),
  FCM_TOKEN_URL: setting(
    z.url(),
    'https://oauth2.googleapis.com/token',
    'OAuth2 token endpoint the FCM service account signs in at',
  ),
  FCM_BASE_URL: setting(z.url(), 'https://fcm.googleapis.com', 'FCM HTTP v1 API base URL'),
  APNS_KEY_ID: setting(optionalString, undefined, 'APNs auth key id (iOS push, token-based); unset: no APNs'),
  APNS_TEAM_ID: setting(optionalString, undefined, 'Apple developer team id that owns `APNS_KEY_ID`'),
  APNS_PRIVATE_KEY: setting(
    optionalString,
    undefined,
    'APNs auth key, the `.p8` PEM text (`\\n` escapes allowed)',
  ),
  APNS_PRIVATE_KEY_FILE: setting(
    optionalString,
    undefined,
    'Path of the `.p8` file instead of `APNS_PRIVATE_KEY`',
  ),
  APNS_BUNDLE_ID: setting(optionalString, undefined, 'iOS app bundle id, sent as `apns-topic`'),
  APNS_BASE_URL: setting(
    optionalUrl,
    undefined,
    'APNs server for every token (default: api.push.apple.com, or api.sandbox.push.apple.com for sandbox tokens)',
  ),
  TWILIO_ACCOUNT_SID: setting(
    optionalString,
    undefined,
    'Twilio account SID for SMS/MMS; unset logs texts instead',
  ),
  TWILIO_AUTH_TOKEN: setting(optionalString, undefined, 'Twilio auth token (with `TWILIO_ACCOUNT_SID`)'),
  TWILIO_FROM: setting(optionalString, undefined, 'Sender number (E.164) of texts'),
  TWILIO_MESSAGING_SERVICE_SID: setting(
    optionalString,
    undefined,
    'Twilio messaging service that picks the sender, instead of `TWILIO_FROM`',
  ),
  TWILIO_BASE_URL: setting(z.url(), 'https://api.twilio.com', 'Twilio REST API base URL'),
  VISION_ENABLED: setting(
    bool,
    'true',
    'Local object and face detection (TensorFlow WASM in a child process of the server); off detects nothing and loads no models',
  ),
  VISION_CONCURRENCY: setting(
    z.coerce.number().int().min(1).max(8),
    '1',
    'Images analysed at once, one vision process each (each holds its own copy of the models, about 400 MB)',
  ),
  VISION_IDLE_SECONDS: setting(
    z.coerce.number().int().min(0),
    '3600',
    'Seconds a vision process may sit without work before it is stopped to free its memory (the next image starts it again, 2–4 s, and waits for that); an hour keeps alerts prompt through a day of sporadic events; 0 keeps it',
  ),
  HIGHLIGHTS_REFRESH_DELAY_SECONDS: setting(
    z.coerce.number().int().min(0).max(600),
    '30',
    "Seconds after a new activity before the user's summary of the day is rewritten (later activities in between join the same run)",
  ),
  AI_CONCURRENCY: setting(
    z.coerce.number().int().min(1).max(16),
    '1',
    'Activities analysed at once (`analysis.analyse` jobs); their images queue for the vision workers',
  ),
  LLM_BASE_URL: setting(
    optionalUrl,
    undefined,
    'OpenAI-compatible API (OpenAI, Ollama, vLLM, llama.cpp), e.g. `https://api.openai.com/v1`; unset answers and describes with the built-in composer',
  ),
  LLM_API_KEY: setting(
    optionalString,
    undefined,
    'Bearer key for `LLM_BASE_URL` (local servers often need none)',
  ),
  LLM_MODEL: setting(z.string().min(1), 'gpt-4o-mini', 'Model name sent to `LLM_BASE_URL`'),
  LLM_TIMEOUT_MS: setting(
    z.coerce.number().int().min(500).max(120_000),
    '8000',
    'Longest an LLM answer or description may take (all tool rounds together) before the built-in composer answers instead',
  ),
  LLM_VISION: setting(
    bool,
    'true',
    'Send activity images to the LLM with its description request (off for text-only models)',
  ),
} as const;

type Settings = typeof settings;
export type Config = { -readonly [K in keyof Settings]: z.output<Settings[K]['schema']> } & {
  PUBLIC_URL: string;
  PUBLIC_HOST: string;
  BILLING_ENABLED: boolean;
};

export class ConfigError extends Error {}

/** Parses the environment once; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(settings) as [string, Setting<z.ZodType>][]) {
    const raw = env[name] ?? s.default;
    const parsed = s.schema.safeParse(raw);
    if (parsed.success) out[name] = parsed.data;
    else problems.push(`${name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const config = out as Config;
  // npm runs workspace scripts inside the workspace; INIT_CWD is where the user typed the command, so
  // `npm start` and `npm run admin` at the root agree on ./data.
  config.DATA_DIR = resolve(env.INIT_CWD ?? process.cwd(), config.DATA_DIR);
  config.PUBLIC_URL = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  // Only a PUBLIC_HOST set on purpose is a passive FTP address: the one derived from PUBLIC_URL (localhost by
  // default) may not be reachable from a camera, while the address it connected to is.
  config.FTP_PUBLIC_HOST = config.FTP_PUBLIC_HOST ?? config.PUBLIC_HOST;
  // Cameras never reach "localhost": with no public name, they upload to this machine's LAN address.
  const urlHost = new URL(config.PUBLIC_URL).hostname;
  config.PUBLIC_HOST = config.PUBLIC_HOST ?? (isLoopbackHost(urlHost) ? lanAddress() : urlHost);
  // Billing limits users to their free events when asked to, or by default once Stripe is configured.
  config.BILLING_ENABLED = config.BILLING_ENABLED ?? config.STRIPE_SECRET_KEY !== undefined;
  if (config.AUTH_JWKS_URL && !config.AUTH_ISSUER) {
    throw new ConfigError('Invalid configuration:\n  AUTH_ISSUER is required with AUTH_JWKS_URL');
  }
  return config;
}
