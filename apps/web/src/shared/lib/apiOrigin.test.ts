import { afterEach, describe, expect, it, vi } from 'vitest';
import { optionalServerUrl, resolveServerOrigin, serverBase, serverOrigin, serverUrl } from './apiOrigin';

const SERVER = 'https://homesitter.example.com';

function pretendNative(platform: 'ios' | 'android') {
  (window as unknown as { Capacitor?: unknown }).Capacitor = {
    isNativePlatform: () => true,
    getPlatform: () => platform,
  };
}

afterEach(() => {
  delete (window as unknown as { Capacitor?: unknown }).Capacitor;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('resolveServerOrigin', () => {
  it('is the page itself in a browser, whatever the build says', () => {
    expect(resolveServerOrigin({ configured: SERVER, native: false, pageOrigin: 'https://app.test' })).toBe(
      '',
    );
    expect(resolveServerOrigin({ configured: undefined, native: false, pageOrigin: 'https://a.test' })).toBe(
      '',
    );
  });

  it('is the baked-in server in the phone apps (bundled on capacitor:// or https://localhost)', () => {
    expect(
      resolveServerOrigin({ configured: SERVER, native: true, pageOrigin: 'capacitor://localhost' }),
    ).toBe(SERVER);
    expect(resolveServerOrigin({ configured: SERVER, native: true, pageOrigin: 'https://localhost' })).toBe(
      SERVER,
    );
  });

  it('keeps only the origin of the configured address (a trailing slash, port, spaces)', () => {
    expect(
      resolveServerOrigin({ configured: ` ${SERVER}/ `, native: true, pageOrigin: 'https://localhost' }),
    ).toBe(SERVER);
    expect(
      resolveServerOrigin({
        configured: 'http://192.168.1.20:8080',
        native: true,
        pageOrigin: 'https://localhost',
      }),
    ).toBe('http://192.168.1.20:8080');
  });

  it('stays on the page when a native build has no server, or is loaded from the server itself', () => {
    expect(resolveServerOrigin({ configured: '', native: true, pageOrigin: 'https://localhost' })).toBe('');
    expect(
      resolveServerOrigin({ configured: undefined, native: true, pageOrigin: 'https://localhost' }),
    ).toBe('');
    expect(resolveServerOrigin({ configured: SERVER, native: true, pageOrigin: SERVER })).toBe('');
  });

  it('ignores, with a warning, a value that is no http(s) address', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(
      resolveServerOrigin({ configured: 'not a url', native: true, pageOrigin: 'https://localhost' }),
    ).toBe('');
    expect(
      resolveServerOrigin({ configured: 'ftp://example.com', native: true, pageOrigin: 'https://localhost' }),
    ).toBe('');
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('serverUrl', () => {
  it('leaves paths alone without a server origin (the browser)', () => {
    expect(serverUrl('/api/live/1/index.m3u8', '')).toBe('/api/live/1/index.m3u8');
  });

  it('puts server paths on the server origin', () => {
    expect(serverUrl('/api/live/1/mse?exp=1&sig=x', SERVER)).toBe(`${SERVER}/api/live/1/mse?exp=1&sig=x`);
    expect(serverUrl('/api/realtime', SERVER)).toBe(`${SERVER}/api/realtime`);
  });

  it('keeps absolute addresses (signed media, S3, blob:, protocol-relative)', () => {
    for (const url of [
      'https://cdn.example.com/media/a.jpg?sig=1',
      'blob:https://localhost/123',
      'data:image/png;base64,AA',
      '//cdn.example.com/a.jpg',
    ])
      expect(serverUrl(url, SERVER)).toBe(url);
  });

  it('passes missing values through', () => {
    expect(optionalServerUrl(null, SERVER)).toBeNull();
    expect(optionalServerUrl(undefined, SERVER)).toBeUndefined();
    expect(optionalServerUrl('/a', SERVER)).toBe(`${SERVER}/a`);
  });

  it('resolves against the server or, in a browser, the page', () => {
    expect(serverBase(SERVER)).toBe(`${SERVER}/`);
    expect(serverBase('')).toBe(window.location.href);
  });
});

describe('serverOrigin (the running app)', () => {
  it('is "" in the browser even when the build names a server', () => {
    vi.stubEnv('VITE_SERVER_URL', SERVER);
    expect(serverOrigin()).toBe('');
    expect(serverUrl('/api/x')).toBe('/api/x');
  });

  it('is the build-time server inside the native shell', () => {
    vi.stubEnv('VITE_SERVER_URL', SERVER);
    pretendNative('ios');
    expect(serverOrigin()).toBe(SERVER);
    expect(serverUrl('/api/x')).toBe(`${SERVER}/api/x`);
  });

  it('is "" in a native build synced without a server (--dev)', () => {
    vi.stubEnv('VITE_SERVER_URL', '');
    pretendNative('android');
    expect(serverOrigin()).toBe('');
  });
});
