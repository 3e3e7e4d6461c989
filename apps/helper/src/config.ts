import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { HELPER_PORT } from '@homesitter/contract';
import { z } from 'zod';

/**
 * Every environment variable the helper reads, declared once: name, schema, default and a one-line doc.
 * `--help` prints this list, and a test checks that docs/helper.md names every one of them.
 */
interface Setting<S extends z.ZodType> {
  schema: S;
  /** The raw default; a function when it depends on the machine (the OS user's config folder). */
  default: string | ((env: NodeJS.ProcessEnv) => string) | undefined;
  /** How `--help` and the docs describe the default. */
  defaultDoc: string;
  doc: string;
}

function setting<S extends z.ZodType>(
  schema: S,
  defaultValue: Setting<S>['default'],
  doc: string,
  defaultDoc = typeof defaultValue === 'string' && defaultValue !== '' ? defaultValue : 'none',
): Setting<S> {
  return { schema, default: defaultValue, defaultDoc, doc };
}

/** An http(s) origin or base address, without a trailing slash. */
const serverUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// address such as https://homesitter.example.com')
  .transform((v) => v.replace(/\/+$/, ''));

const originList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine((v) => {
        try {
          return new URL(v).origin === v || /^[a-z][a-z0-9+.-]*:\/\/[^/]+$/i.test(v);
        } catch {
          return false;
        }
      }, 'each entry must be an origin such as https://app.example.com (scheme, host, port; no path)'),
    ),
  );

const optionalPath = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const cidrList = commaList.pipe(
  z.array(
    z
      .string()
      .regex(
        /^(\d{1,3}\.){3}\d{1,3}\/(\d|[12]\d|3[0-2])$/,
        'each entry must be an IPv4 CIDR such as 192.168.1.0/24',
      ),
  ),
);

const portList = commaList.pipe(
  z.array(
    z
      .string()
      .regex(/^\d{1,5}$/, 'ports are whole numbers')
      .transform(Number)
      .pipe(z.number().min(1, 'ports are 1 to 65535').max(65535, 'ports are 1 to 65535')),
  ),
);

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export const BRIDGE_MODES = ['auto', 'always', 'never'] as const;
export type BridgeSetting = (typeof BRIDGE_MODES)[number];

export const settings = {
  HOMESITTER_URL: setting(
    serverUrl,
    'http://localhost:8080',
    'The Homesitter app and API (they share one origin): where you sign in and where cameras are registered',
  ),
  HELPER_PORT: setting(
    z.coerce.number().int().min(0).max(65535),
    String(HELPER_PORT),
    'Port of the local API on 127.0.0.1 (the web app looks for the helper on 17429)',
  ),
  HELPER_CONFIG_DIR: setting(
    z.string().trim().min(1),
    defaultConfigDir,
    'Where the session, the bridged cameras and the upload spool are kept (created with mode 0700)',
    'the OS user config folder (see docs)',
  ),
  HELPER_ALLOWED_ORIGINS: setting(
    originList,
    '',
    'More web origins, comma-separated, allowed to call the local API besides HOMESITTER_URL and the native app',
  ),
  HELPER_BRIDGE: setting(
    z.enum(BRIDGE_MODES),
    'auto',
    '`auto`: bridge cameras unless HOMESITTER_URL is on this computer or the home network; `always`; `never`',
  ),
  HELPER_SCAN_SUBNETS: setting(
    cidrList,
    '',
    'Subnets (comma-separated CIDRs) the port scan covers; unset: the subnets of this computer (each cut to a /24)',
    "this computer's subnets",
  ),
  HELPER_SCAN_RTSP_PORTS: setting(portList, '', 'RTSP ports the scan tries', '554,8554'),
  HELPER_SCAN_HTTP_PORTS: setting(
    portList,
    '',
    'HTTP ports the scan tries for an ONVIF device service',
    '80,8080,8000,8899',
  ),
  HELPER_DISCOVERY_PORT: setting(
    z.coerce.number().int().min(1).max(65535),
    '3702',
    'UDP port of ONVIF WS-Discovery (cameras answer on 3702; another value only for simulated cameras)',
  ),
  HELPER_DISCOVERY_INTERFACES: setting(
    commaList,
    '',
    'Network interfaces (names or IPv4 addresses) WS-Discovery probes from',
    'every non-internal IPv4 interface',
  ),
  LOG_LEVEL: setting(z.enum(LOG_LEVELS), 'info', 'debug, info, warn, error or silent'),
  FFMPEG_PATH: setting(
    optionalPath,
    undefined,
    'The ffmpeg to use; unset: one beside the executable, the npm build in a checkout, else `ffmpeg` on PATH',
  ),
  FFPROBE_PATH: setting(optionalPath, undefined, 'The ffprobe to use; found like FFMPEG_PATH'),
} as const;

type Settings = typeof settings;
export type HelperConfig = { readonly [K in keyof Settings]: z.output<Settings[K]['schema']> };

export class ConfigError extends Error {}

/** Parses the environment once; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HelperConfig {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(settings) as [string, Setting<z.ZodType>][]) {
    const fallback = typeof s.default === 'function' ? s.default(env) : s.default;
    const raw = env[name] === undefined || env[name] === '' ? fallback : env[name];
    const parsed = s.schema.safeParse(raw);
    if (parsed.success) out[name] = parsed.data;
    else problems.push(`${name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  // Every key of `settings` was parsed by its own schema just above.
  const config = out as HelperConfig;
  return { ...config, HELPER_CONFIG_DIR: resolve(config.HELPER_CONFIG_DIR) };
}

/** The OS's place for a user's application settings. */
export function defaultConfigDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Homesitter Helper');
  if (platform === 'win32') {
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Homesitter Helper');
  }
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'homesitter-helper');
}

/** `--help`: what the helper is, and every setting with its default. */
export function helpText(version: string): string {
  const rows = Object.entries(settings).map(
    ([name, s]) => `  ${name.padEnd(24)}${s.doc}\n  ${''.padEnd(24)}default: ${s.defaultDoc}`,
  );
  return [
    `Homesitter helper ${version}`,
    '',
    'Finds cameras on your home network, tests and configures them for Homesitter, and records and relays',
    'the ones your Homesitter server cannot reach. It answers on http://127.0.0.1:<HELPER_PORT> only.',
    '',
    'Usage: homesitter-helper [--help] [--version]',
    '',
    'Settings (environment variables):',
    ...rows,
    '',
  ].join('\n');
}
