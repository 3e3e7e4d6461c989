import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installSecurityHeaders, webSocketOrigin } from './security-headers.js';

async function connectSrc(publicUrl: string, mediaOrigins: string[] = []): Promise<string[]> {
  const app = Fastify();
  installSecurityHeaders(app, { publicUrl, mediaOrigins });
  app.get('/', async () => 'ok');
  const res = await app.inject({ method: 'GET', url: '/', headers: { host: 'evil.example' } });
  await app.close();
  const csp = String(res.headers['content-security-policy']);
  const directive = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
  return directive!.trim().split(/\s+/).slice(1);
}

describe('Content-Security-Policy connect-src', () => {
  it("allows sockets to our own origin only, the helper's local API and the media store, whatever the Host", async () => {
    expect(await connectSrc('https://app.example.com', ['https://bucket.s3.example.net'])).toEqual([
      "'self'",
      'wss://app.example.com',
      'http://127.0.0.1:17429',
      'https://bucket.s3.example.net',
    ]);
  });

  it('names ws: for a plain-http PUBLIC_URL with its port (development, the browser tests)', async () => {
    const sources = await connectSrc('http://localhost:41234');
    expect(sources).toContain('ws://localhost:41234');
    expect(sources).not.toContain('ws:');
    expect(sources).not.toContain('wss:');
  });

  it('takes the origin of a PUBLIC_URL with a path', () => {
    expect(webSocketOrigin('https://example.com:8443/homesitter')).toBe('wss://example.com:8443');
  });
});
