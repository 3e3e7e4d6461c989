import { describe, expect, it, vi } from 'vitest';
import { fakeListeners, memoryStorage } from './fakes.test-support';
import {
  createNativePush,
  disableNativePushToken,
  foregroundText,
  PUSH_TOKEN_STORAGE_KEY,
  pushTarget,
  type PushPlugin,
} from './push';
import type { PermissionState } from './types';

function setup(
  opts: { permission?: PermissionState; answer?: PermissionState; valid?: boolean | Error } = {},
) {
  const events = fakeListeners();
  let token = 'fcm-token-1';
  const requestPermissions = vi.fn(async () => ({ receive: opts.answer ?? 'granted' }));
  const register = vi.fn(async () => {
    // The plugin answers with the `registration` event, as APNs/FCM do.
    queueMicrotask(() => events.fire('registration', { value: token }));
  });
  const plugin = {
    checkPermissions: vi.fn(async () => ({ receive: opts.permission ?? 'granted' })),
    requestPermissions,
    register,
    addListener: events.addListener,
  } as unknown as PushPlugin;
  const valid = opts.valid ?? false;
  const api = {
    register: vi.fn(async () => ({})),
    verify: vi.fn(async () => {
      if (valid instanceof Error) throw valid;
      return valid;
    }),
    disable: vi.fn(async () => ({})),
  };
  const navigate = vi.fn();
  const toast = vi.fn();
  const storage = memoryStorage();
  const timers: { fn: () => void; ms: number }[] = [];
  let signedIn = true;
  const push = createNativePush({
    plugin,
    api,
    platform: 'android',
    navigate,
    toast,
    storage,
    isSignedIn: () => signedIn,
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    clearTimeout: () => undefined,
    log: { warn: vi.fn(), info: vi.fn() },
  });
  push.start();
  return {
    push,
    plugin: { register, requestPermissions },
    api,
    navigate,
    toast,
    storage,
    timers,
    events,
    setToken: (t: string) => (token = t),
    signOut: () => (signedIn = false),
  };
}

describe('native push', () => {
  it('1.5 s after sign-in asks for permission, registers, verifies the token and registers it when unknown', async () => {
    const s = setup({ permission: 'prompt', valid: false });
    s.push.onLoggedIn();
    expect(s.timers.map((t) => t.ms)).toEqual([1_500]);
    expect(s.plugin.register).not.toHaveBeenCalled();

    s.timers[0]!.fn();
    await vi.waitFor(() => expect(s.api.register).toHaveBeenCalled());
    expect(s.plugin.requestPermissions).toHaveBeenCalledOnce();
    expect(s.api.verify).toHaveBeenCalledWith('fcm-token-1', 'android');
    expect(s.api.register).toHaveBeenCalledWith('fcm-token-1', 'android', false);
    expect(s.storage.data.get(PUSH_TOKEN_STORAGE_KEY)).toBe('fcm-token-1');
  });

  it('does not register again a token the server already verifies', async () => {
    const s = setup({ valid: true });
    await s.push.refreshAndVerify();
    expect(s.api.verify).toHaveBeenCalledOnce();
    expect(s.api.register).not.toHaveBeenCalled();
    expect(s.plugin.requestPermissions).not.toHaveBeenCalled();
  });

  it('treats a failed verification as an invalid token (docs/product.md §7) and registers it', async () => {
    const s = setup({ valid: new Error('offline') });
    await s.push.refreshAndVerify();
    expect(s.api.register).toHaveBeenCalledWith('fcm-token-1', 'android', false);
  });

  it('registers nothing without permission', async () => {
    const s = setup({ permission: 'prompt', answer: 'denied' });
    await s.push.refreshAndVerify();
    expect(s.plugin.register).not.toHaveBeenCalled();
    expect(s.api.verify).not.toHaveBeenCalled();
    expect(s.api.register).not.toHaveBeenCalled();
  });

  it('sends a token the system replaced on its own while signed in', async () => {
    const s = setup({ valid: true });
    await s.push.refreshAndVerify();
    s.events.fire('registration', { value: 'fcm-token-2' });
    await vi.waitFor(() => expect(s.api.register).toHaveBeenCalledWith('fcm-token-2', 'android', false));
  });

  it('opens the event of a tapped ACTIVITY_ALERT and highlights a tapped CHAT_MESSAGE', () => {
    const s = setup();
    s.events.fire('pushNotificationActionPerformed', {
      actionId: 'tap',
      notification: { data: { notification_type: 'ACTIVITY_ALERT', activity_uuid: 'a 1' } },
    });
    s.events.fire('pushNotificationActionPerformed', {
      actionId: 'tap',
      notification: { data: { notification_type: 'CHAT_MESSAGE', chat_message_id: 'm1' } },
    });
    expect(s.navigate.mock.calls).toEqual([
      ['/chat?activity=a%201', undefined],
      ['/chat', { state: { highlightMessageId: 'm1' } }],
    ]);
  });

  it('shows a push that arrives in the foreground as a toast', () => {
    const s = setup();
    s.events.fire('pushNotificationReceived', { title: 'Front door', body: 'A person was seen' });
    expect(s.toast).toHaveBeenCalledWith('Front door: A person was seen');
  });

  it('removes its listeners when stopped', async () => {
    const s = setup();
    await s.push.stop();
    expect(s.events.removed.sort()).toEqual(
      [
        'pushNotificationActionPerformed',
        'pushNotificationReceived',
        'registration',
        'registrationError',
      ].sort(),
    );
  });
});

describe('push targets and texts', () => {
  it('knows only the two notification types', () => {
    expect(pushTarget({ notification_type: 'CHAT_MESSAGE' })).toEqual({ to: '/chat' });
    expect(pushTarget({ notification_type: 'ACTIVITY_ALERT' })).toBeNull();
    expect(pushTarget({ notification_type: 'OTHER' })).toBeNull();
    expect(pushTarget(undefined)).toBeNull();
  });

  it('uses the title or the body alone when the other is missing', () => {
    expect(foregroundText({ title: 'Hi' })).toBe('Hi');
    expect(foregroundText({ body: 'There' })).toBe('There');
    expect(foregroundText({})).toBeNull();
  });
});

describe('disabling the token at sign-out', () => {
  it('tells the server to stop pushing to the stored token', async () => {
    const disable = vi.fn(async () => ({}));
    const storage = memoryStorage({ [PUSH_TOKEN_STORAGE_KEY]: 'tok' });
    await disableNativePushToken({ api: { disable }, platform: 'ios', storage });
    expect(disable).toHaveBeenCalledWith('tok', 'ios');
  });

  it('has nothing to do without a token, or when the server does not know it (4xx)', async () => {
    const disable = vi.fn(async () => {
      throw Object.assign(new Error('not found'), { status: 404 });
    });
    await disableNativePushToken({ api: { disable }, platform: 'ios', storage: memoryStorage() });
    expect(disable).not.toHaveBeenCalled();
    const storage = memoryStorage({ [PUSH_TOKEN_STORAGE_KEY]: 'tok' });
    await expect(
      disableNativePushToken({ api: { disable }, platform: 'ios', storage }),
    ).resolves.toBeUndefined();
  });

  it('throws when the server could not be told, so sign-out stops', async () => {
    const disable = vi.fn(async () => {
      throw Object.assign(new Error('Network error'), { status: 0 });
    });
    const storage = memoryStorage({ [PUSH_TOKEN_STORAGE_KEY]: 'tok' });
    await expect(disableNativePushToken({ api: { disable }, platform: 'android', storage })).rejects.toThrow(
      'Network error',
    );
  });
});
