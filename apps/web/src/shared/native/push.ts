import {
  PUSH_SANDBOX_DEFAULT,
  PUSH_VERIFY_AFTER_LOGIN_MS,
  TOKEN_LOG_CHARS,
} from '@homesitter/contract/runtime';
import type { ListenerHandle, Navigate, NativePlatform, PermissionState } from './types';

/** What a push carries besides title and body (apps/server/src/adapters/push: `dataFields`). */
export type PushData =
  | { notification_type: 'CHAT_MESSAGE'; chat_message_id?: string }
  | { notification_type: 'ACTIVITY_ALERT'; activity_uuid?: string }
  | Record<string, unknown>;

export interface ReceivedPush {
  title?: string;
  body?: string;
  data?: unknown;
}

/** The slice of `@capacitor/push-notifications` used here. */
export interface PushPlugin {
  checkPermissions(): Promise<{ receive: PermissionState }>;
  requestPermissions(): Promise<{ receive: PermissionState }>;
  register(): Promise<void>;
  addListener(event: 'registration', fn: (token: { value: string }) => void): Promise<ListenerHandle>;
  addListener(event: 'registrationError', fn: (error: { error: string }) => void): Promise<ListenerHandle>;
  addListener(event: 'pushNotificationReceived', fn: (push: ReceivedPush) => void): Promise<ListenerHandle>;
  addListener(
    event: 'pushNotificationActionPerformed',
    fn: (action: { actionId: string; notification: ReceivedPush }) => void,
  ): Promise<ListenerHandle>;
}

/** The three push-token calls of docs/product.md §7 (`api.call('registerPushToken' | 'verifyPushToken' | 'disablePushToken')`). */
export interface PushTokenApi {
  register(token: string, platform: NativePlatform, isSandbox: boolean): Promise<unknown>;
  /** `isValid` of POST /api/users/verify-push-token. */
  verify(token: string, platform: NativePlatform): Promise<boolean>;
  disable(token: string, platform: NativePlatform): Promise<unknown>;
}

/** Where the device's last token is kept, so sign-out can disable it after a restart. */
export const PUSH_TOKEN_STORAGE_KEY = 'homesitter.nativePushToken';

type TokenStorage = Pick<Storage, 'getItem' | 'setItem'>;

function readToken(storage: TokenStorage): string | null {
  try {
    return storage.getItem(PUSH_TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeToken(storage: TokenStorage, token: string) {
  try {
    storage.setItem(PUSH_TOKEN_STORAGE_KEY, token);
  } catch {
    // Storage unavailable: sign-out then has no token to disable, as before the first registration.
  }
}

const short = (token: string) => `${token.slice(0, TOKEN_LOG_CHARS)}…`;

/** A tapped push's screen: an alert opens its event over the chat, a chat answer is highlighted there. */
export function pushTarget(data: unknown): { to: string; state?: { highlightMessageId: string } } | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (d.notification_type === 'ACTIVITY_ALERT' && typeof d.activity_uuid === 'string' && d.activity_uuid) {
    return { to: `/chat?activity=${encodeURIComponent(d.activity_uuid)}` };
  }
  if (d.notification_type === 'CHAT_MESSAGE') {
    return typeof d.chat_message_id === 'string' && d.chat_message_id
      ? { to: '/chat', state: { highlightMessageId: d.chat_message_id } }
      : { to: '/chat' };
  }
  return null;
}

/** The toast text of a push that arrives while the app is open (the system shows no banner then). */
export function foregroundText(push: ReceivedPush): string | null {
  const title = push.title?.trim();
  const body = push.body?.trim();
  if (title && body) return `${title}: ${body}`;
  return title || body || null;
}

export interface NativePushOptions {
  plugin: PushPlugin;
  api: PushTokenApi;
  platform: NativePlatform;
  navigate: Navigate;
  /** Shows a foreground push (sonner, through `notify`). */
  toast: (text: string) => void;
  storage: TokenStorage;
  /** Whether someone is signed in (a token is only sent for a signed-in user). */
  isSignedIn: () => boolean;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (timer: unknown) => void;
  log?: Pick<Console, 'warn' | 'info'>;
}

/**
 * Native push (docs/product.md §4 "Push state"): permission, registration with APNs/FCM, the token sent to the server,
 * verified 1.5 s after every sign-in, taps routed to the chat and foreground pushes shown as toasts.
 * Failures are only logged (docs/product.md §8).
 */
export function createNativePush(options: NativePushOptions) {
  const { plugin, api, platform, storage } = options;
  const log = options.log ?? console;
  const schedule = options.setTimeout ?? ((fn: () => void, ms: number) => window.setTimeout(fn, ms));
  const cancel = options.clearTimeout ?? ((t: unknown) => window.clearTimeout(t as number));
  let waiting: ((token: string | null) => void) | null = null;
  let verifyTimer: unknown;
  const handles: Promise<ListenerHandle>[] = [];

  async function send(token: string) {
    await api.register(token, platform, PUSH_SANDBOX_DEFAULT);
    log.info(`push token registered (${short(token)})`);
  }

  function onToken(token: string) {
    const previous = readToken(storage);
    writeToken(storage, token);
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve(token);
      return;
    }
    // A token the system replaced on its own while someone is signed in: the server gets the new one.
    if (token !== previous && options.isSignedIn()) {
      send(token).catch((error: unknown) => log.warn('push token registration failed', error));
    }
  }

  /** Asks for permission when it was never asked, registers with APNs/FCM and waits for the token. */
  async function obtainToken(): Promise<string | null> {
    let { receive } = await plugin.checkPermissions();
    if (receive === 'prompt' || receive === 'prompt-with-rationale') {
      ({ receive } = await plugin.requestPermissions());
    }
    if (receive !== 'granted') return null;
    const token = new Promise<string | null>((resolve) => {
      waiting?.(null);
      waiting = resolve;
    });
    await plugin.register();
    return token;
  }

  /** docs/product.md §4: on login the token is refreshed, then verified; one the server does not know is registered. */
  async function refreshAndVerify(): Promise<void> {
    const token = await obtainToken();
    if (!token || !options.isSignedIn()) return;
    const valid = await api.verify(token, platform).catch(() => false);
    if (!valid) await send(token);
  }

  return {
    /** Listens for tokens, taps and foreground pushes; call once at start. */
    start() {
      handles.push(
        plugin.addListener('registration', (t) => onToken(t.value)),
        plugin.addListener('registrationError', (e) => {
          log.warn('push registration failed', e.error);
          if (waiting) {
            const resolve = waiting;
            waiting = null;
            resolve(null);
          }
        }),
        plugin.addListener('pushNotificationReceived', (push) => {
          const text = foregroundText(push);
          if (text) options.toast(text);
        }),
        plugin.addListener('pushNotificationActionPerformed', ({ notification }) => {
          const target = pushTarget(notification.data);
          if (target) void options.navigate(target.to, target.state ? { state: target.state } : undefined);
        }),
      );
    },
    /** `loggedIn`: refresh and verify the token after the product's 1.5 s. */
    onLoggedIn(delayMs: number = PUSH_VERIFY_AFTER_LOGIN_MS) {
      cancel(verifyTimer);
      verifyTimer = schedule(() => {
        refreshAndVerify().catch((error: unknown) => log.warn('push token verification failed', error));
      }, delayMs);
    },
    onLoggedOut() {
      cancel(verifyTimer);
    },
    refreshAndVerify,
    async stop() {
      cancel(verifyTimer);
      for (const handle of await Promise.allSettled(handles.splice(0))) {
        if (handle.status === 'fulfilled') await handle.value.remove();
      }
    },
  };
}

export type NativePush = ReturnType<typeof createNativePush>;

/**
 * At sign-out (docs/product.md §4): the server stops pushing to this device before the session ends. Throws when it
 * could not be told, so sign-out stops and says so; a token the server does not know (4xx) has nothing
 * to disable.
 */
export async function disableNativePushToken(options: {
  api: Pick<PushTokenApi, 'disable'>;
  platform: NativePlatform;
  storage: TokenStorage;
}): Promise<void> {
  const token = readToken(options.storage);
  if (!token) return;
  try {
    await options.api.disable(token, options.platform);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    const nothingToDisable = typeof status === 'number' && status >= 400 && status < 500;
    if (!nothingToDisable) throw error;
  }
}
