import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAllowedRedirect } from '../features/auth/redirect';
import { toWebSocketUrl } from '../features/cameras/live/liveUrl';
import { absoluteMediaUrl } from '../shared/native/player';

/** Every place the app opens the server itself (sockets, players, redirects) follows shared/lib/apiOrigin.ts. */
const SERVER = 'https://homesitter.example.com';

afterEach(() => {
  delete (window as unknown as { Capacitor?: unknown }).Capacitor;
  vi.unstubAllEnvs();
});

function pretendNative(platform: 'ios' | 'android') {
  (window as unknown as { Capacitor?: unknown }).Capacitor = {
    isNativePlatform: () => true,
    getPlatform: () => platform,
  };
}

describe('the server origin at each place the app reaches its server', () => {
  it('sends the live socket, the native player and auth redirects to the server in the phone apps', () => {
    vi.stubEnv('VITE_SERVER_URL', SERVER);
    pretendNative('android');
    expect(toWebSocketUrl('/api/live/1/mse?exp=1&sig=x')).toBe(
      'wss://homesitter.example.com/api/live/1/mse?exp=1&sig=x',
    );
    expect(absoluteMediaUrl('/api/live/1/index.m3u8')).toBe(`${SERVER}/api/live/1/index.m3u8`);
    expect(isAllowedRedirect(`${SERVER}/done`, 'https://localhost')).toBe(true);
    expect(isAllowedRedirect('https://elsewhere.example.com/done', 'https://localhost')).toBe(false);
  });

  it('keeps them on the page in a browser', () => {
    expect(toWebSocketUrl('/api/live/1/mse', 'http://localhost:5173/cameras')).toBe(
      'ws://localhost:5173/api/live/1/mse',
    );
    expect(absoluteMediaUrl('/api/live/1/index.m3u8')).toBe(
      new URL('/api/live/1/index.m3u8', window.location.href).toString(),
    );
    expect(isAllowedRedirect(`${SERVER}/done`, 'https://app.test')).toBe(false);
  });
});
