import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api';
import { disableWebPush } from '../lib/webPush';
import { disablePushForSignOut, nativePlatform, pushTokenApi, startNativeShell } from './index';
import { PUSH_TOKEN_STORAGE_KEY } from './push';

vi.mock('../lib/api', () => ({
  api: { call: vi.fn() },
  session: { getState: () => ({ status: 'signedOut', user: null }), on: () => () => undefined },
}));
vi.mock('../lib/webPush', () => ({ disableWebPush: vi.fn() }));

const call = vi.mocked(api.call);
const w = window as unknown as { Capacitor?: unknown };

afterEach(() => {
  delete w.Capacitor;
  vi.clearAllMocks();
});

function inApp(platform: 'ios' | 'android') {
  w.Capacitor = { isNativePlatform: () => true, getPlatform: () => platform };
}

describe('the native front door', () => {
  it('is off in a browser: no platform, no shell, and sign-out disables Web Push', async () => {
    expect(nativePlatform()).toBeNull();
    await expect(startNativeShell(vi.fn())).resolves.toBeUndefined();
    await disablePushForSignOut();
    expect(disableWebPush).toHaveBeenCalledOnce();
    expect(call).not.toHaveBeenCalled();
  });

  it("disables the device's push token at sign-out inside the app", async () => {
    inApp('ios');
    window.localStorage.setItem(PUSH_TOKEN_STORAGE_KEY, 'abc123');
    call.mockResolvedValue({ success: true, data: {} } as never);
    await disablePushForSignOut();
    expect(call).toHaveBeenCalledWith('disablePushToken', { body: { token: 'abc123', platform: 'ios' } });
    expect(disableWebPush).not.toHaveBeenCalled();
  });

  it('sends the docs/product.md §7 bodies for register and verify, reading isValid', async () => {
    call.mockResolvedValue({ success: true, data: { isValid: true } } as never);
    await pushTokenApi.register('t', 'android', false);
    expect(call).toHaveBeenCalledWith('registerPushToken', {
      body: { token: 't', platform: 'android', is_sandbox: false },
    });
    await expect(pushTokenApi.verify('t', 'android')).resolves.toBe(true);
    expect(call).toHaveBeenLastCalledWith('verifyPushToken', { body: { token: 't', platform: 'android' } });
  });
});
