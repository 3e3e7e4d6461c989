import { gunzipSync } from 'node:zlib';
import type { Endpoint } from '@homesitter/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendSerialized, serializeResponse } from './serialized.js';

const listEndpoint = {
  response: z.object({ success: z.literal(true), data: z.array(z.string()) }),
} as unknown as Endpoint;

function appServing(count: number) {
  const body = serializeResponse(listEndpoint, {
    success: true,
    data: Array.from({ length: count }, (_, i) => `item ${i}`),
  });
  const app = Fastify();
  app.get('/list', (req, reply) => sendSerialized(listEndpoint, req, reply, body));
  return { app, body };
}

describe('serialised responses', () => {
  it('sends a large answer gzipped to a client that accepts gzip, compressed once', async () => {
    const { app, body } = appServing(5_000);
    const first = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const second = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers.vary).toBe('accept-encoding');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.rawPayload.byteLength).toBeLessThan(body.byteLength / 3);
    expect(JSON.parse(gunzipSync(first.rawPayload).toString())).toMatchObject({ success: true });
    expect(gunzipSync(first.rawPayload).equals(body.json)).toBe(true);
    expect(body.gzip()).toBe(body.gzip());
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('sends plain JSON to a client that does not accept gzip or refuses it', async () => {
    const { app, body } = appServing(5_000);
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip;q=0, br' }]) {
      const res = await app.inject({ url: '/list', headers });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(body.json)).toBe(true);
    }
  });

  it('sends a small answer as it is', async () => {
    const { app, body } = appServing(3);
    const res = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual(JSON.parse(body.json.toString()));
  });
});
