import type { FastifyInstance, FastifyReply } from 'fastify';

/** What a cross-origin call of the phone apps may use: every method of the API. */
export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/**
 * The request headers the web app sends: the bearer token, JSON bodies, and what the SignalR client adds to
 * the realtime hub's negotiate call.
 */
export const CORS_ALLOW_HEADERS =
  'authorization, content-type, accept, x-requested-with, x-signalr-user-agent';
/** How long a browser may reuse an answered preflight (WebKit caps it at 600 s, Chromium at 7200 s). */
export const CORS_MAX_AGE_SECONDS = 600;

/** Adds `value` to the `Vary` header of `reply`, keeping what is there. */
function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.includes('*') || list.some((v) => v.toLowerCase() === value.toLowerCase())) return;
  void reply.header('vary', [...list, value].join(', '));
}

/**
 * CORS for the phone apps only (docs/mobile.md). They show the web app bundled into them, served by
 * Capacitor from `capacitor://localhost` (iOS) or `https://localhost` (Android), and call this server from
 * there: `NATIVE_APP_ORIGINS` lists those origins. A request from one of them is answered with
 * `Access-Control-Allow-Origin` naming it, a preflight (`OPTIONS` with `Access-Control-Request-Method`) at
 * once with 204 and the allowed methods, headers and max age. Any other origin gets no CORS header at all (a
 * browser then keeps the answer from its page), and a preflight from it goes on as a plain `OPTIONS`
 * request. No credentials: the apps send a bearer token, never cookies. Every answer says `Vary: Origin`,
 * so a cache never serves one origin's answer to another.
 *
 * WebSockets (the realtime hub, the live view) are not subject to CORS; their routes check tokens, not
 * the `Origin` header, so the apps' sockets are accepted as the browser's are.
 */
export function installCors(app: FastifyInstance, options: { origins: readonly string[] }): void {
  const allowed = new Set(options.origins.map((o) => o.trim().toLowerCase().replace(/\/+$/, '')));
  const allowedOrigin = (origin: string | undefined) =>
    origin !== undefined && allowed.has(origin.toLowerCase()) ? origin : undefined;

  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return;
    const origin = allowedOrigin(req.headers.origin);
    if (!origin) return;
    addVary(reply, 'Origin');
    return reply
      .code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', CORS_ALLOW_METHODS)
      .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
      .header('access-control-max-age', String(CORS_MAX_AGE_SECONDS))
      .send();
  });

  app.addHook('onSend', async (req, reply, payload) => {
    addVary(reply, 'Origin');
    const origin = allowedOrigin(req.headers.origin);
    if (origin && !reply.hasHeader('access-control-allow-origin')) {
      void reply
        .header('access-control-allow-origin', origin)
        .header('access-control-expose-headers', 'retry-after');
    }
    return payload;
  });
}
