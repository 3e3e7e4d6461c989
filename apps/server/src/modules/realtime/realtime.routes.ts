import { randomBytes } from 'node:crypto';
import { endpoints, REALTIME_HUB_PATH } from '@homesitter/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import { redactToken } from '../../platform/logger.js';
import type { UsersApi } from '../users/users.module.js';
import { realtimeErrors } from './realtime.errors.js';
import type { RealtimeService } from './realtime.service.js';

/** How long a hub negotiation's connection token may wait for its WebSocket. */
const CONNECTION_TOKEN_TTL_MS = 60_000;

function hubToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || undefined;
  const query = req.query as Record<string, unknown> | undefined;
  return typeof query?.access_token === 'string' ? query.access_token : undefined;
}

/**
 * The realtime calls: `POST /api/realtime/negotiate` (contract; ID token) redirects the SignalR client to the
 * hub with a 5-minute hub token; the hub's own negotiate and WebSocket accept only that token. The hub's
 * address is built from `PUBLIC_URL`, never from the request's Host header, which the caller chooses: a
 * forged one would send the client, and its hub token, elsewhere.
 */
export function registerRealtimeRoutes(
  app: FastifyInstance,
  deps: {
    realtime: RealtimeService;
    users: Pick<UsersApi, 'getProfile'>;
    guards: AccessGuards;
    /** `PUBLIC_URL`, without a trailing slash. */
    publicUrl: string;
  },
): void {
  const { realtime, users, guards } = deps;
  const hubUrl = `${deps.publicUrl}${REALTIME_HUB_PATH}`;
  const pending = new Map<string, { userId: string; expiresAt: number }>();
  const authenticated = new WeakMap<FastifyRequest, string>();

  async function authenticate(req: FastifyRequest): Promise<string> {
    const token = hubToken(req);
    const userId = token ? await realtime.verifyToken(token) : null;
    if (!userId) {
      if (token) req.log.info({ token: redactToken(token) }, 'rejected realtime token');
      throw realtimeErrors.tokenInvalid();
    }
    return userId;
  }

  route(app, guards, endpoints.realtimeNegotiate, async (req) => {
    const profile = await users.getProfile(callerOf(req).subject);
    return {
      success: true as const,
      url: hubUrl,
      accessToken: await realtime.issueToken(profile.user_uuid),
    };
  });

  app.post(`${REALTIME_HUB_PATH}/negotiate`, { schema: { hide: true } }, async (req) => {
    const userId = await authenticate(req);
    const now = Date.now();
    for (const [key, value] of pending) if (value.expiresAt < now) pending.delete(key);
    const connectionToken = randomBytes(16).toString('base64url');
    pending.set(connectionToken, { userId, expiresAt: now + CONNECTION_TOKEN_TTL_MS });
    return {
      negotiateVersion: 1,
      connectionId: randomBytes(16).toString('base64url'),
      connectionToken,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    };
  });

  app.get(
    REALTIME_HUB_PATH,
    {
      websocket: true,
      schema: { hide: true },
      // Runs before the upgrade: a bad token is answered 401 and no socket is opened.
      preHandler: async (req) => {
        const userId = await authenticate(req);
        const id = (req.query as Record<string, unknown>).id;
        const negotiated = typeof id === 'string' ? pending.get(id) : undefined;
        if (!negotiated || negotiated.userId !== userId || negotiated.expiresAt < Date.now())
          throw realtimeErrors.tokenInvalid();
        pending.delete(id as string);
        authenticated.set(req, userId);
      },
    },
    (socket, req) => {
      const userId = authenticated.get(req);
      if (!userId) {
        socket.close(1008, 'unauthorized');
        return;
      }
      realtime.hub.accept(socket, userId);
    },
  );
}
