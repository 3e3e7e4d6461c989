import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { ChatMessage } from '@homesitter/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_CHANNEL } from '../../src/adapters/fanout/redis.fanout.js';
import type { VisionEngine } from '../../src/adapters/vision/vision.js';
import { person } from '../../src/modules/analysis/analysis.test-support.js';
import { smallJpeg } from '../../src/modules/ingest/ingest.test-support.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../app.js';
import { canRunRedis, startPrivateRedis, until } from './fault-support.js';
import { freePort } from '../ports.js';

// Redis down under a running server (REDIS_URL pointing at a private redis-server this test kills): the
// app's own clients still hear their events (the fan-out falls back to this instance), uploads, API calls
// and alerts work, and once Redis is back the fan-out goes through it again by itself.

if (!canRunRedis) console.info('Redis fault tests skipped: no redis-server binary on this machine');

const seesPerson: VisionEngine = {
  kind: 'local',
  analyse: async () => ({ width: 640, height: 360, objects: [person()], faces: [] }),
  embedFaces: async () => [],
  close: async () => undefined,
};

describe.skipIf(!canRunRedis)('realtime while Redis is down', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let t: TestApp;
  let base: string;
  let user: TestUser;
  let login: { username: string; password: string };
  let client: HubConnection;
  /** Every ReceiveMessage the client got, by message id. */
  const heard = new Map<string, number>();
  const posted: string[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      vision: seesPerson,
      chatAnswers: false,
      env: { REDIS_URL: redis.url, PUBLIC_URL: base },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    user = await signUp(t);
    login = (
      await t.app.inject({ method: 'GET', url: '/api/users/camera-email-credentials', headers: user.auth })
    ).json<{ data: { username: string; password: string } }>().data;
    client = new HubConnectionBuilder()
      .withUrl(`${base}/api/realtime`, { accessTokenFactory: () => user.idToken })
      .withAutomaticReconnect([0, 200, 500, 1000, 2000])
      .configureLogging(LogLevel.None)
      .build();
    client.on('ReceiveMessage', (m: ChatMessage) => {
      heard.set(m.message_uuid, (heard.get(m.message_uuid) ?? 0) + 1);
    });
    await client.start();
  }, 60_000);

  afterAll(async () => {
    await client?.stop();
    await t?.close();
    await redis?.close();
  });

  /** Posts a chat message through the API and waits for the client to hear it. */
  async function say(text: string): Promise<number> {
    const started = performance.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/messages',
      headers: user.auth,
      payload: { text },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ data: { message_uuid: string } }>().data.message_uuid;
    posted.push(id);
    await until(() => (heard.has(id) ? true : undefined));
    return performance.now() - started;
  }

  function figures(label: string) {
    const lost = posted.filter((id) => !heard.has(id)).length;
    const duplicated = [...heard.values()].filter((n) => n > 1).length;
    console.log(`[faults] ${label}: messages ${posted.length}, lost ${lost}, duplicated ${duplicated}`);
    return { lost, duplicated };
  }

  it('delivers through Redis while it is up', async () => {
    await say('Redis up');
    expect(figures('Redis up')).toEqual({ lost: 0, duplicated: 0 });
  });

  it('keeps API calls, realtime to this instance, uploads and alerts working while Redis is down', async () => {
    await redis.kill();
    const ms = await say('Redis down');
    console.log(`[faults] Redis down: a chat message reached the client in ${Math.round(ms)} ms`);
    expect(client.state).toBe(HubConnectionState.Connected);

    // A camera upload becomes an activity and an alert the client hears.
    const before = heard.size;
    const body = new FormData();
    body.append('camera_name', 'Garden');
    body.append('file', new Blob([new Uint8Array(await smallJpeg())]), 'motion.jpg');
    const res = await fetch(`${base}/api/ingest/events`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`,
      },
    });
    expect(res.status, await res.text()).toBe(202);
    const alert = await until(async () => {
      const rows = await t.database.query<{ id: string }>(
        `SELECT m.id FROM chat_messages m JOIN activities a ON a.alert_message_id = m.id
         JOIN users u ON u.id = m.user_id WHERE u.auth_subject = $1`,
        [user.uid],
      );
      return rows[0];
    });
    posted.push(alert.id);
    await until(() => (heard.has(alert.id) ? true : undefined));
    expect(heard.size).toBeGreaterThan(before);

    const list = await t.app.inject({ method: 'GET', url: '/api/users/activities', headers: user.auth });
    expect(list.statusCode).toBe(200);
    expect(figures('Redis down')).toEqual({ lost: 0, duplicated: 0 });
  });

  it('fans out through Redis again once it is back', async () => {
    await redis.start();
    const watcher = new Redis(redis.url, { lazyConnect: true });
    try {
      await watcher.connect();
      // The server's subscriber is back on the channel (ioredis reconnects and subscribes again by itself).
      await until(async () => {
        const [, subscribers] = (await watcher.pubsub('NUMSUB', REALTIME_CHANNEL)) as [string, number];
        return Number(subscribers) > 0 ? true : undefined;
      }, 100);
      const listener = watcher.duplicate();
      const seen: string[] = [];
      await listener.subscribe(REALTIME_CHANNEL);
      listener.on('message', (_c: string, raw: string) => seen.push(raw));
      try {
        await say('Redis back');
        const id = posted.at(-1)!;
        await until(() => (seen.some((raw) => raw.includes(id)) ? true : undefined));
      } finally {
        listener.disconnect();
      }
    } finally {
      watcher.disconnect();
    }
    expect(figures('Redis back')).toEqual({ lost: 0, duplicated: 0 });
  });
});
