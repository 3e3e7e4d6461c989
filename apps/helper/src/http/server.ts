import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import { HelperError, helperErrors } from './errors.js';
import { createOriginGuard } from './origin-guard.js';
import { sendError } from './respond.js';
import { createRouter, type Route } from './router.js';

/** The helper's local API listens here and nowhere else: never on the network. */
export const LOOPBACK_ADDRESS = '127.0.0.1';

export interface LocalServerOptions {
  port: number;
  routes: readonly Route[];
  allowedOrigins: readonly string[];
  log: Logger;
}

export interface LocalServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** The local API on 127.0.0.1: origin guard and CORS first, then the routes, every failure as JSON. */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { log } = options;
  const guard = createOriginGuard(options.allowedOrigins);
  const router = createRouter(options.routes);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'no-store');
    const refused = guard.check(req);
    if (refused) {
      log.warn({ origin: req.headers.origin, host: req.headers.host, path: req.url }, 'request refused');
      res.setHeader('connection', 'close');
      return sendError(res, refused);
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, guard.preflightHeaders(req));
      return void res.end();
    }
    for (const [name, value] of Object.entries(guard.corsHeaders(req))) res.setHeader(name, value);

    const url = new URL(req.url ?? '/', `http://${LOOPBACK_ADDRESS}`);
    const matched = router.match(req.method ?? 'GET', url.pathname);
    if (!matched) throw helperErrors.notFound(`No such call: ${req.method} ${url.pathname}`);

    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    await matched.route.handle({ req, res, url, params: matched.params, signal: abort.signal });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const known = err instanceof HelperError ? err : null;
      if (!known) log.error({ err: String(err), path: req.url }, 'a local API call failed');
      if (res.headersSent) return void res.end();
      // A refused body may still be arriving; closing after the answer spares reading it.
      if (!req.complete) res.setHeader('connection', 'close');
      sendError(res, known ?? helperErrors.internal());
    });
  });
  // Slow or idle clients must not pin the helper; discovery streams for a minute, so no request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK_ADDRESS, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://${LOOPBACK_ADDRESS}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
