import fastifyWebsocket from '@fastify/websocket';
import type { Fanout } from '../../adapters/fanout/fanout.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { SigningKey } from '../auth/tokens.js';
import type { UsersApi } from '../users/users.module.js';
import { createHub } from './realtime.hub.js';
import { registerRealtimeRoutes } from './realtime.routes.js';
import { createRealtimeService } from './realtime.service.js';
import { createRealtimeTokens } from './realtime.tokens.js';

/** What one WebSocket message of any of the server's sockets may weigh (one relayed fMP4 fragment). */
const WEBSOCKET_MAX_PAYLOAD = 8 * 1024 * 1024;

/** The realtime hub clients keep open (chat, activities, cameras), fanned out across instances. */
export async function createRealtimeModule(
  context: ModuleContext,
  needs: { fanout: Fanout; signingKey: SigningKey; users: Pick<UsersApi, 'getProfile'> },
) {
  const { config, log } = context;
  const realtime = await createRealtimeService({
    hub: createHub({ log }),
    fanout: needs.fanout,
    tokens: await createRealtimeTokens(needs.signingKey, config.PUBLIC_URL),
    events: context.events,
    log,
  });
  return {
    api: realtime,
    routes: async (app, { guards }) => {
      await app.register(fastifyWebsocket, {
        // The largest message any socket of the server accepts: a live fragment the desktop helper relays
        // (a keyframe of a large picture). Each socket keeps its own, smaller bound: the hub's clients
        // REALTIME_MAX_MESSAGE_BYTES, the helper's control socket HELPER_MESSAGE_MAX_BYTES.
        options: { maxPayload: WEBSOCKET_MAX_PAYLOAD },
        // Clients hear "you may reconnect" before their socket closes, so they move to a running instance.
        preClose: async () => {
          await realtime.close();
          for (let i = 0; i < 20 && app.websocketServer.clients.size > 0; i++)
            await new Promise((resolve) => setTimeout(resolve, 50));
          for (const client of app.websocketServer.clients) client.terminate();
          await new Promise<void>((resolve) => app.websocketServer.close(() => resolve()));
        },
      });
      registerRealtimeRoutes(app, { realtime, users: needs.users, guards, publicUrl: config.PUBLIC_URL });
    },
  } satisfies AppModule<unknown>;
}
export type RealtimeApi = Awaited<ReturnType<typeof createRealtimeModule>>['api'];
