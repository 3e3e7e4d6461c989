import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { AppError } from '../errors.js';
import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS, CORS_MAX_AGE_SECONDS } from './cors.js';
import { createHttpServer } from './server.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The real HTTP server (so the CORS hook is installed as in production) with two routes. */
async function server(env: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: '/tmp/hs-cors', ...env });
  const app = await createHttpServer(config, createLogger('silent'), []);
  apps.push(app);
  app.get('/api/ping', async () => ({ success: true, data: { pong: true } }));
  app.post('/api/fail', async () => {
    throw new AppError(404, 'not_found', 'No such thing');
  });
  return app;
}

const preflight = (app: FastifyInstance, origin: string) =>
  app.inject({
    method: 'OPTIONS',
    url: '/api/ping',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-allow-credentials',
];

describe('CORS for the phone apps', () => {
  it('answers a preflight from the iOS and the Android app with their exact origin', async () => {
    const app = await server();
    for (const origin of ['capacitor://localhost', 'https://localhost']) {
      const res = await preflight(app, origin);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-methods']).toBe(CORS_ALLOW_METHODS);
      expect(res.headers['access-control-allow-headers']).toBe(CORS_ALLOW_HEADERS);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization/);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/content-type/);
      expect(res.headers['access-control-max-age']).toBe(String(CORS_MAX_AGE_SECONDS));
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Origin/);
    }
  });

  it('gives a preflight from any other origin no CORS header', async () => {
    const app = await server();
    for (const origin of ['https://evil.example', 'http://localhost', 'capacitor://evil', 'null']) {
      const res = await preflight(app, origin);
      expect(res.statusCode).not.toBe(204);
      for (const header of CORS_HEADERS) expect(res.headers[header]).toBeUndefined();
    }
  });

  it('names the allowed origin on normal answers, errors included, and no other', async () => {
    const app = await server();
    const ok = await app.inject({ url: '/api/ping', headers: { origin: 'capacitor://localhost' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect(ok.headers.vary).toMatch(/Origin/);

    const failed = await app.inject({
      method: 'POST',
      url: '/api/fail',
      headers: { origin: 'https://localhost', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(failed.statusCode).toBe(404);
    expect(failed.headers['access-control-allow-origin']).toBe('https://localhost');

    const missing = await app.inject({ url: '/api/nothing-here', headers: { origin: 'https://localhost' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('https://localhost');

    const other = await app.inject({ url: '/api/ping', headers: { origin: 'https://evil.example' } });
    expect(other.statusCode).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toMatch(/Origin/);

    const sameOrigin = await app.inject({ url: '/api/ping' });
    expect(sameOrigin.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('takes its origins from NATIVE_APP_ORIGINS (empty: none)', async () => {
    const custom = await server({ NATIVE_APP_ORIGINS: 'https://app.example.com, capacitor://localhost/' });
    expect((await preflight(custom, 'https://app.example.com')).headers['access-control-allow-origin']).toBe(
      'https://app.example.com',
    );
    expect((await preflight(custom, 'capacitor://localhost')).headers['access-control-allow-origin']).toBe(
      'capacitor://localhost',
    );
    expect(
      (await preflight(custom, 'https://localhost')).headers['access-control-allow-origin'],
    ).toBeUndefined();

    const none = await server({ NATIVE_APP_ORIGINS: '' });
    expect(
      (await preflight(none, 'capacitor://localhost')).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });

  it('refuses an entry that is not an origin', () => {
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/hs-cors', NATIVE_APP_ORIGINS: 'https://a.example/app' }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: '/tmp/hs-cors', NATIVE_APP_ORIGINS: 'localhost' })).toThrow(
      ConfigError,
    );
  });
});
