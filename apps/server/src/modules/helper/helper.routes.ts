import { endpoints, HELPER_CONNECT_PATH, HELPER_LIVE_PATH } from '@homesitter/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { Logger } from '../../platform/logger.js';
import { cameraErrors } from '../cameras/cameras.module.js';
import type { UsersApi } from '../users/users.module.js';
import { userErrors } from '../users/users.module.js';
import { DOWNLOADS_PATH, type HelperDownloads } from './helper.downloads.js';
import { helperErrors } from './helper.errors.js';
import type { HelperService } from './helper.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface HelperRoutesDeps {
  service: HelperService;
  downloads: HelperDownloads;
  users: Pick<UsersApi, 'findIdBySubject' | 'requireIdBySubject'>;
  guards: AccessGuards;
  log: Logger;
  /** Whether this instance holds the helpers' sockets (`STREAMS_ENABLED`: the one that serves live view). */
  sockets: boolean;
}

function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/**
 * A socket's ID token may come as `?access_token=` (browsers and some WebSocket clients cannot set headers):
 * it is moved into the Authorization header, so the access guards check it as on every bearer route.
 */
async function tokenFromQuery(req: FastifyRequest): Promise<void> {
  const token = (req.query as Record<string, unknown> | undefined)?.access_token;
  if (!req.headers.authorization && typeof token === 'string' && token) {
    req.headers.authorization = `Bearer ${token}`;
  }
}

/**
 * The helper's calls: its status for the web app, the builds to download, and (on the instance that serves
 * live view) its control socket and one live relay socket per camera.
 */
export function registerHelperRoutes(app: FastifyInstance, deps: HelperRoutesDeps): void {
  const { service, downloads, users, guards, log } = deps;

  route(app, guards, endpoints.getHelperStatus, async (req) => ({
    success: true as const,
    data: await service.status(await users.requireIdBySubject(callerOf(req).subject)),
  }));

  route(app, guards, endpoints.listHelperDownloads, async () => ({
    success: true as const,
    data: await downloads.list(),
  }));

  app.get(`${DOWNLOADS_PATH}/:file`, { schema: { hide: true } }, async (req, reply) => {
    const { file } = req.params as { file: string };
    if (!downloads.isBuildName(file)) throw helperErrors.buildName();
    const build = await downloads.open(file);
    if (!build) throw helperErrors.buildNotFound();
    void reply
      .type('application/octet-stream')
      .header('content-length', String(build.size))
      .header('content-disposition', `attachment; filename="${file}"`)
      .header('cache-control', 'no-cache');
    return reply.send(build.stream);
  });

  if (!deps.sockets) return;

  // The signed-in user of a socket, found before the upgrade: a bad token or a foreign camera never opens one.
  const userOf = new WeakMap<FastifyRequest, string>();
  const onRequest = [tokenFromQuery, ...guards.verified];
  async function knownUser(req: FastifyRequest): Promise<string> {
    const userId = await users.findIdBySubject(callerOf(req).subject);
    if (!userId) throw userErrors.notFound();
    userOf.set(req, userId);
    return userId;
  }

  app.get(
    HELPER_CONNECT_PATH,
    {
      websocket: true,
      schema: { hide: true },
      onRequest,
      preHandler: async (req) => void (await knownUser(req)),
    },
    (socket: WebSocket, req) => {
      const userId = userOf.get(req)!;
      const link = service.connect(userId, {
        send: (text) => socket.send(text),
        close: (code, reason) => socket.close(code, reason),
        ping: () => socket.ping(),
        terminate: () => socket.terminate(),
      });
      socket.on('message', (data, isBinary) => {
        if (isBinary) log.debug({ userId }, 'binary helper message ignored');
        else link.receive(bytesOf(data).toString('utf8'));
      });
      socket.on('pong', () => link.pong());
      socket.on('close', () => link.closed());
      socket.on('error', (err) => log.debug({ err: err.message, userId }, 'helper socket error'));
    },
  );

  app.get(
    HELPER_LIVE_PATH,
    {
      websocket: true,
      schema: { hide: true },
      onRequest,
      preHandler: async (req) => {
        const { cameraUuid } = req.params as { cameraUuid: string };
        const userId = await knownUser(req);
        // Only a camera of the caller's own that their connected helper may relay.
        if (!UUID.test(cameraUuid) || !service.mayRelay(userId, cameraUuid)) throw cameraErrors.notFound();
      },
    },
    (socket: WebSocket, req) => {
      const userId = userOf.get(req)!;
      const { cameraUuid } = req.params as { cameraUuid: string };
      const relay = service.attachRelay(userId, cameraUuid, {
        close: (code, reason) => socket.close(code, reason),
      });
      socket.on('message', (data, isBinary) => relay.receive(bytesOf(data), isBinary));
      socket.on('close', () => relay.closed());
      socket.on('error', (err) => log.debug({ err: err.message, userId }, 'helper live socket error'));
    },
  );
}
