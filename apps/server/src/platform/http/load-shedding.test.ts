import { apiRoutes } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { registerHealthRoutes } from './health.js';
import { createHttpServer, type HttpServerOptions } from './server.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function server(env: Record<string, string>, options: HttpServerOptions = {}) {
  const config = loadConfig({ DATA_DIR: '/tmp/hs-load-shedding', ...env });
  const app = await createHttpServer(config, createLogger('silent'), [], options);
  apps.push(app);
  registerHealthRoutes(app, {
    ping: async () => true,
    mediaTools: async () => ({}),
    isOperator: async () => false,
  });
  app.get('/api/ping', async () => ({ success: true, data: { pong: true } }));
  return app;
}

describe('load shedding', () => {
  it('answers API calls 503 with Retry-After and the error envelope while the server is overloaded', async () => {
    const app = await server({ OVERLOAD_RETRY_AFTER_SECONDS: '7' }, { overloaded: () => true });
    const res = await app.inject({ method: 'GET', url: '/api/ping' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.json()).toEqual({
      success: false,
      code: 'server.unavailable',
      message: 'The server is busy; try again in 7 seconds',
      retryAfterSeconds: 7,
    });
  });

  it('keeps answering health checks while it sheds API calls', async () => {
    const app = await server({}, { overloaded: () => true });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('serves normally when nothing says it is overloaded', async () => {
    const app = await server({}, { overloaded: () => false });
    const res = await app.inject({ method: 'GET', url: '/api/ping' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { pong: true } });
  });
});

describe('stopping', () => {
  it('answers 503 with Connection: close and Retry-After to requests after the signal', async () => {
    const app = await server({});
    await app.ready();
    app.stopTakingRequests();
    const res = await app.inject({ method: 'GET', url: '/api/ping' });
    expect(res.statusCode).toBe(503);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ success: false, code: 'server.unavailable' });
  });
});

describe('heavy routes', () => {
  it("let another user's photo in before the rest of one user's burst", async () => {
    const app = await server({ HEAVY_JOBS_PER_USER: '1', HEAVY_JOBS_TOTAL: '1' });
    const entered: string[] = [];
    const gates = new Map<string, () => void>();
    const signals = new Map<string, () => void>();
    const signal = (key: string) => new Promise<void>((resolve) => signals.set(key, resolve));
    // Stands in for the memory photo upload: who is calling comes from a header, as a guard would set it.
    app.addHook('onRequest', async (req) => {
      req.auth = {
        subject: String(req.headers['x-user']),
        email: '',
        emailVerified: true,
        issuer: 'local',
        token: '',
      };
    });
    app.post(
      apiRoutes.uploadMemoryImage.path,
      // The route's own preHandler runs just before the fair queue's: the request is about to queue.
      { preHandler: async (req) => signals.get(`queued ${String(req.headers['x-name'])}`)?.() },
      async (req) => {
        const name = String(req.headers['x-name']);
        entered.push(name);
        signals.get(`entered ${name}`)?.();
        await new Promise<void>((resolve) => gates.set(name, resolve));
        return { success: true };
      },
    );
    const upload = async (user: string, name: string) => {
      const queued = signal(`queued ${name}`);
      const answer = app.inject({
        method: 'POST',
        url: '/api/users/memories/people/m1/images',
        headers: { 'x-user': user, 'x-name': name },
      });
      await queued;
      return { answer };
    };
    /** Lets the request that just reached the queue take its place in it. */
    const settle = () => new Promise((resolve) => setImmediate(resolve));

    const first = signal('entered alice-1');
    const answers = [await upload('alice', 'alice-1')];
    await first;
    answers.push(await upload('alice', 'alice-2'), await upload('alice', 'alice-3'));
    // Bob asks last, while Alice's burst waits.
    answers.push(await upload('bob', 'bob-1'));
    await settle();
    for (const [done, next] of [
      ['alice-1', 'bob-1'],
      ['bob-1', 'alice-2'],
      ['alice-2', 'alice-3'],
    ] as const) {
      const entering = signal(`entered ${next}`);
      gates.get(done)!();
      await entering;
    }
    gates.get('alice-3')!();
    const statuses = await Promise.all(answers.map(async (a) => (await a.answer).statusCode));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(entered).toEqual(['alice-1', 'bob-1', 'alice-2', 'alice-3']);
  });
});
