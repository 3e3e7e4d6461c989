import type { AddressInfo } from 'node:net';
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { ChatMessage } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createInProcessFanout } from '../../adapters/fanout/inprocess.fanout.js';
import { createRedisFanout } from '../../adapters/fanout/redis.fanout.js';
import { createServer } from '../../app.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { freePort } from '../../../test/ports.js';

let t: TestApp;
let rose: TestUser;
let otto: TestUser;
let base: string;
const open: HubConnection[] = [];

async function listen(app: FastifyInstance, port = 0): Promise<string> {
  await app.listen({ port, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const port = await freePort();
  // The hub address negotiate answers comes from PUBLIC_URL: here, where the app listens.
  t = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
  base = await listen(t.app, port);
  [rose, otto] = await Promise.all([signUp(t), signUp(t)]);
});
let restarted: FastifyInstance | undefined;
afterAll(async () => {
  await Promise.allSettled(open.map((c) => c.stop()));
  await restarted?.close();
  await t.close();
});

/** The official client, as the web app uses it: negotiate with the ID token, follow the redirect to the hub. */
function connect(url: string, idToken: string, reconnect = false): HubConnection {
  const builder = new HubConnectionBuilder()
    .withUrl(`${url}/api/realtime`, { accessTokenFactory: () => idToken })
    .configureLogging(LogLevel.None);
  const connection = (
    reconnect ? builder.withAutomaticReconnect([0, 200, 500, 1000, 2000]) : builder
  ).build();
  open.push(connection);
  return connection;
}

function next<T>(connection: HubConnection, event: string): Promise<T> {
  return new Promise((resolve) => {
    const handler = (payload: T) => {
      connection.off(event, handler);
      resolve(payload);
    };
    connection.on(event, handler);
  });
}

const userIdOf = async (who: TestUser): Promise<string> =>
  (await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: who.auth })).json<{
    data: { user_uuid: string };
  }>().data.user_uuid;

describe('negotiate', () => {
  it('answers the hub address from PUBLIC_URL, whatever Host and forwarded headers the caller sends', async () => {
    for (const headers of [
      { host: 'evil.example' },
      { host: 'evil.example:443', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/realtime/negotiate',
        headers: { ...rose.auth, ...headers },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ url: string }>().url).toBe(`${base}/api/realtime/hub`);
    }
  });

  it('answers the hub url and a short-lived token at the top level', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/realtime/negotiate', headers: rose.auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.url).toBe(`${base}/api/realtime/hub`);
    expect(body.accessToken.split('.')).toHaveLength(3);
    const exp = JSON.parse(Buffer.from(body.accessToken.split('.')[1], 'base64url').toString()).exp;
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(300);
  });

  it('is refused without a valid ID token, and the hub refuses anything but its own token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/realtime/negotiate' })).statusCode).toBe(401);
    // An ID token is not a hub token.
    const hub = await t.app.inject({
      method: 'POST',
      url: '/api/realtime/hub/negotiate?negotiateVersion=1',
      headers: rose.auth,
    });
    expect(hub.statusCode).toBe(401);
    expect(hub.json().code).toBe('realtime.token_invalid');
  });
});

describe('the hub with the official SignalR client', () => {
  it('connects through negotiate and receives ReceiveMessage and progress updates for this user only', async () => {
    const roseApp = connect(base, rose.idToken);
    const ottoApp = connect(base, otto.idToken);
    await Promise.all([roseApp.start(), ottoApp.start()]);
    expect(roseApp.state).toBe(HubConnectionState.Connected);
    let ottoHeard = 0;
    ottoApp.on('ReceiveMessage', () => (ottoHeard += 1));

    const progress = next<{ in_progress_text: string }>(roseApp, 'ReceiveProgressUpdate');
    await t.modules.chat.publishProgress(await userIdOf(rose), 'Looking at the front door camera…');
    expect(await progress).toEqual({ in_progress_text: 'Looking at the front door camera…' });

    const received = next<ChatMessage>(roseApp, 'ReceiveMessage');
    const posted = await t.modules.chat.postAgentMessage(await userIdOf(rose), { text: 'Nobody came by.' });
    const message = await received;
    expect(message).toEqual(posted);
    expect(message).toMatchObject({ role: 'agent', text: 'Nobody came by.' });
    expect(ottoHeard).toBe(0);
    await Promise.all([roseApp.stop(), ottoApp.stop()]);
  });

  it("echoes a user's own sent message to their other open apps", async () => {
    const [tabA, tabB] = [connect(base, rose.idToken), connect(base, rose.idToken)];
    await Promise.all([tabA.start(), tabB.start()]);
    const inB = next<ChatMessage>(tabB, 'ReceiveMessage');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/messages',
      headers: rose.auth,
      payload: { text: 'From tab A' },
    });
    expect((await inB).message_uuid).toBe(res.json().data.message_uuid);
    await Promise.all([tabA.stop(), tabB.stop()]);
  });

  it('pushes CamerasChanged when a camera of the user changes', async () => {
    const app = connect(base, rose.idToken);
    await app.start();
    const changed = next<unknown>(app, 'CamerasChanged');
    await t.deps.events.emit('cameras.changed', { userId: await userIdOf(rose) });
    expect(await changed).toEqual({});
    await app.stop();
  });

  it('refuses a bad token: negotiate fails, and the socket is not opened', async () => {
    const forged = connect(base, `${rose.idToken.slice(0, -4)}AAAA`);
    await expect(forged.start()).rejects.toThrow();
    expect(forged.state).toBe(HubConnectionState.Disconnected);

    // A hub token of one user cannot open another's negotiated connection, and a missing token opens nothing.
    const { accessToken } = (
      await t.app.inject({ method: 'POST', url: '/api/realtime/negotiate', headers: otto.auth })
    ).json();
    const wsUrl = `${base.replace('http', 'ws')}/api/realtime/hub?id=made-up&access_token=${accessToken}`;
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(wsUrl);
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(status).toBe(401);
  });

  it('reconnects by itself after a server restart', async () => {
    const app = connect(base, rose.idToken, true);
    await app.start();
    const reconnected = new Promise<void>((resolve) => app.onreconnected(() => resolve()));
    const port = Number(new URL(base).port);
    const roseId = await userIdOf(rose);

    await t.app.close();
    // A fresh fan-out: the closed server's realtime closed its own.
    const server = await createServer({ ...t.deps, fanout: createInProcessFanout() });
    restarted = server.app;
    await listen(server.app, port);

    await reconnected;
    expect(app.state).toBe(HubConnectionState.Connected);
    const received = next<ChatMessage>(app, 'ReceiveMessage');
    await server.modules.chat.postAgentMessage(roseId, { text: 'Back online.' });
    expect((await received).text).toBe('Back online.');
    await app.stop();
  });
});

describe('several instances', () => {
  it.skipIf(!process.env.TEST_REDIS_URL)(
    'fan events out through Redis: a message posted on one instance reaches a client of the other',
    async () => {
      const portTwo = await freePort();
      const env = { REDIS_URL: process.env.TEST_REDIS_URL!, PUBLIC_URL: `http://127.0.0.1:${portTwo}` };
      const one = await createTestApp({ env, database: t.database });
      // Its own connection to Redis, as a second process would have.
      const { app: two } = await createServer({
        ...one.deps,
        fanout: createRedisFanout(env.REDIS_URL, one.deps.log),
      });
      try {
        const baseTwo = await listen(two, portTwo);
        const user = await signUp(one);
        const client = connect(baseTwo, user.idToken);
        await client.start();
        const received = next<ChatMessage>(client, 'ReceiveMessage');
        const id = (
          await one.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth })
        ).json().data.user_uuid;
        await one.modules.chat.postAgentMessage(id, { text: 'Via Redis' });
        expect((await received).text).toBe('Via Redis');
        await client.stop();
      } finally {
        await two.close();
        await one.close();
      }
    },
  );
  if (!process.env.TEST_REDIS_URL)
    console.info(
      'Redis fan-out across two instances skipped: set TEST_REDIS_URL=redis://127.0.0.1:6379 to run it',
    );
});
