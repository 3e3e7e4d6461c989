/**
 * The operator's command line: `npm run admin -- signup on|off`, `npm run admin -- waitlist list`,
 * `npm run admin -- free-events <email> <n>`.
 * It talks to the running server (any instance) with the admin token, so it works the same on the embedded
 * database, which only the server process may open, and on PostgreSQL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpoints } from '@homesitter/contract';
import { loadConfig, type Config } from '../platform/config.js';

const USAGE = `Usage:
  npm run admin -- signup on|off     open or close sign-up (closed: new visitors see the waitlist)
  npm run admin -- signup status     show whether sign-up is open
  npm run admin -- waitlist list     print the waitlist, oldest first
  npm run admin -- free-events <email> <n>
                                     set a user's remaining free motion events`;

function adminToken(config: Config): string {
  if (config.ADMIN_TOKEN) return config.ADMIN_TOKEN;
  const file = join(config.DATA_DIR, 'admin-token');
  if (!existsSync(file))
    throw new Error(`No admin token: set ADMIN_TOKEN, or start the server once so it creates ${file}`);
  return readFileSync(file, 'utf8').trim();
}

async function call(config: Config, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = `${config.PUBLIC_URL}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${adminToken(config)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Error(`Cannot reach the server at ${config.PUBLIC_URL}. Is it running (npm start)?`);
  }
  const json = (await res.json()) as { success: boolean; data?: unknown; message?: string };
  if (!res.ok || !json.success) throw new Error(json.message ?? `${res.status} ${res.statusText}`);
  return json.data;
}

export async function runAdmin(args: string[], config: Config = loadConfig()): Promise<string> {
  const [area, action] = args;
  if (area === 'signup' && (action === 'on' || action === 'off')) {
    const { path, method } = endpoints.adminSetSignup;
    const data = (await call(config, method, path, { enabled: action === 'on' })) as { enabled: boolean };
    return `Sign-up is now ${data.enabled ? 'open' : 'closed (visitors see the waitlist)'}.`;
  }
  if (area === 'signup' && action === 'status') {
    const data = (await call(config, endpoints.signupStatus.method, endpoints.signupStatus.path)) as {
      enabled: boolean;
    };
    return `Sign-up is ${data.enabled ? 'open' : 'closed'}.`;
  }
  if (area === 'free-events' && action && args[2] !== undefined) {
    const remaining = Number(args[2]);
    if (!Number.isInteger(remaining) || remaining < 0) throw new Error(USAGE);
    const { path, method } = endpoints.adminSetFreeEvents;
    const data = (await call(config, method, path, { email: action, remaining_free_events: remaining })) as {
      email: string;
      remaining_free_events: number;
    };
    return `${data.email} has ${data.remaining_free_events} free event(s) left.`;
  }
  if (area === 'waitlist' && action === 'list') {
    const { path, method } = endpoints.adminListWaitlist;
    const rows = (await call(config, method, path)) as { email: string; created_at: string }[];
    if (rows.length === 0) return 'The waitlist is empty.';
    return [...rows.map((r) => `${r.created_at}  ${r.email}`), `${rows.length} on the waitlist.`].join('\n');
  }
  throw new Error(USAGE);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runAdmin(process.argv.slice(2)).then(
    (out) => console.log(out),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
