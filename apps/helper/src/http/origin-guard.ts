import type { IncomingMessage } from 'node:http';
import { helperErrors, type HelperError } from './errors.js';

/** The native app's WebView origins (Capacitor on iOS and Android, and the app's own scheme). */
export const NATIVE_APP_ORIGINS = ['capacitor://localhost', 'https://localhost', 'homesitter://localhost'];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Who may use the local API. The helper reaches into the home network, so a web page must not be able to
 * use it to probe the LAN: a request carrying an `Origin` must come from the Homesitter app (its origin,
 * the native app, `HELPER_ALLOWED_ORIGINS`), and every request must be addressed to a loopback name, which
 * stops DNS rebinding (a page of another site whose name was pointed at 127.0.0.1 sends its own name as
 * `Host`, and a same-origin GET carries no `Origin`). Requests without `Origin` (curl, the helper's own
 * pages, top-level navigation) are allowed.
 */
export interface OriginGuard {
  /** The refusal for this request, or null when it may go on. */
  check(req: IncomingMessage): HelperError | null;
  /** CORS headers for an allowed cross-origin request. */
  corsHeaders(req: IncomingMessage): Record<string, string>;
  /** The answer to a CORS preflight of an allowed origin, incl. Chrome's Private Network Access. */
  preflightHeaders(req: IncomingMessage): Record<string, string>;
}

export function createOriginGuard(allowedOrigins: readonly string[]): OriginGuard {
  const allowed = new Set(allowedOrigins.map((o) => o.toLowerCase()));
  const originOf = (req: IncomingMessage) => {
    const origin = req.headers.origin;
    return typeof origin === 'string' && origin !== '' ? origin : null;
  };

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = originOf(req);
    if (origin === null) return {};
    return { 'access-control-allow-origin': origin, vary: 'Origin' };
  }

  return {
    check(req) {
      const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
      if (!LOOPBACK_HOSTS.has(host)) return helperErrors.hostNotAllowed();
      const origin = originOf(req);
      if (origin !== null && !allowed.has(origin.toLowerCase())) return helperErrors.originNotAllowed(origin);
      return null;
    },
    corsHeaders,
    preflightHeaders(req) {
      const headers: Record<string, string> = {
        ...corsHeaders(req),
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      };
      if (req.headers['access-control-request-private-network'] === 'true') {
        headers['access-control-allow-private-network'] = 'true';
      }
      return headers;
    },
  };
}
