import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installSecurityHeaders, webSocketOrigin } from './security-headers.js';

async function directive(
  name: string,
  options: { publicUrl: string; mediaOrigins?: string[]; payments?: boolean },
): Promise<string[]> {
  const app = Fastify();
  installSecurityHeaders(app, options);
  app.get('/', async () => 'ok');
  const res = await app.inject({ method: 'GET', url: '/', headers: { host: 'evil.example' } });
  await app.close();
  const csp = String(res.headers['content-security-policy']);
  const found = csp.split(';').find((d) => d.trim().startsWith(`${name} `));
  return found!.trim().split(/\s+/).slice(1);
}

const connectSrc = (publicUrl: string, mediaOrigins: string[] = []) =>
  directive('connect-src', { publicUrl, mediaOrigins });

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

describe('Content-Security-Policy with payments', () => {
  it('lets only Stripe.js, its frames and its API in, and only when payments are configured', async () => {
    const publicUrl = 'https://app.example.com';
    expect(await directive('script-src', { publicUrl })).toEqual(["'self'"]);
    expect(await directive('frame-src', { publicUrl })).toEqual(["'self'"]);
    expect(await directive('connect-src', { publicUrl })).not.toContain('https://api.stripe.com');

    expect(await directive('script-src', { publicUrl, payments: true })).toEqual([
      "'self'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
    ]);
    expect(await directive('frame-src', { publicUrl, payments: true })).toContain('https://hooks.stripe.com');
    expect(await directive('connect-src', { publicUrl, payments: true })).toContain('https://api.stripe.com');
  });
});
