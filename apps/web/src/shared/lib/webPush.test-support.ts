import { vi } from 'vitest';

/** A PushSubscription as a browser makes it, bound to the key it was created with. */
export class FakeSubscription {
  unsubscribed = false;
  readonly endpoint = `https://fcm.googleapis.com/fcm/send/${Math.random().toString(36).slice(2)}`;
  constructor(readonly options: { applicationServerKey: ArrayBuffer | null; userVisibleOnly: boolean }) {}
  toJSON() {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'abcdefghijklmnopqrstuv' },
    };
  }
  unsubscribe = vi.fn(async () => {
    this.unsubscribed = true;
    return true;
  });
}

/** Installs a browser with service workers, the Push API and notifications; answers its moving parts. */
export function installPushBrowser(permission: NotificationPermission = 'granted') {
  let current: FakeSubscription | null = null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
      const key = options.applicationServerKey;
      current = new FakeSubscription({
        userVisibleOnly: options.userVisibleOnly,
        applicationServerKey: key.buffer.slice(
          key.byteOffset,
          key.byteOffset + key.byteLength,
        ) as ArrayBuffer,
      });
      return current;
    }),
  };
  const registration = { pushManager };
  const serviceWorker = {
    register: vi.fn(async () => registration),
    ready: Promise.resolve(registration),
    getRegistration: vi.fn(async () => registration),
  };
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = 'granted';
      return 'granted';
    }),
  };
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  Object.defineProperty(window, 'PushManager', { value: class PushManager {}, configurable: true });
  Object.defineProperty(window, 'Notification', { value: notification, configurable: true });
  return {
    pushManager,
    serviceWorker,
    notification,
    subscription: () => current,
    /** A subscription the browser already holds, made with `key`. */
    existing(key: Uint8Array) {
      current = new FakeSubscription({
        userVisibleOnly: true,
        applicationServerKey: key.buffer.slice(
          key.byteOffset,
          key.byteOffset + key.byteLength,
        ) as ArrayBuffer,
      });
      return current;
    },
  };
}

/** A browser without Web Push (older Safari, an insecure origin). */
export function uninstallPushBrowser() {
  for (const name of ['PushManager', 'Notification'] as const) {
    Reflect.deleteProperty(window, name);
  }
  Reflect.deleteProperty(navigator, 'serviceWorker');
}
