import {
  formatMessage,
  MESSAGES,
  REALTIME_HUB_PATH,
  REALTIME_KEEP_ALIVE_MS,
  REALTIME_RECONNECT_DELAYS_MS,
  REALTIME_SERVER_TIMEOUT_MS,
  type RealtimeEventName,
} from '@homesitter/contract/runtime';
import type { RealtimeEvents } from '@homesitter/contract';
import type { HubConnection } from '@microsoft/signalr';
import { api } from './api';
import { serverUrl } from './apiOrigin';
import { ApiError } from './http';

/** docs/product.md §4 "Realtime connection". */
export type RealtimeState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'disconnecting';

export interface RealtimeSnapshot {
  state: RealtimeState;
  error: string | null;
}

/** What an event's listener receives: the payload the contract's event map gives that event. */
export type RealtimeHandler<E extends RealtimeEventName> = (payload: RealtimeEvents[E]) => void;

/**
 * The one realtime connection of the app (official `@microsoft/signalr` client), on the server of
 * `apiOrigin.ts` (the page's own origin in a browser): negotiated with the ID token at
 * `POST /api/realtime/negotiate`, reconnecting after 0, 2, 10 and 30 s, then giving up with "Unable to
 * establish connection. Please refresh the page.". The signed-in session `acquire()`s it (one connection per
 * session, whatever screen is shown); it closes when released. Opening and closing run one after the other, so
 * a close still under way never swallows the open that follows it.
 */
export function createRealtimeClient(options: { negotiate: () => Promise<string>; hubUrl?: string }) {
  let snapshot: RealtimeSnapshot = { state: 'disconnected', error: null };
  let connection: HubConnection | null = null;
  let users = 0;
  let everConnected = false;
  let queue: Promise<void> = Promise.resolve();
  const listeners = new Set<() => void>();
  const reconnectedListeners = new Set<() => void>();
  // One map for the handlers of every event, so the payload type stays open here (`never` takes them all);
  // each handler only ever gets its own event, whose payload the server publishes typed by the same map.
  const handlers = new Map<RealtimeEventName, Set<RealtimeHandler<never>>>();

  function set(next: Partial<RealtimeSnapshot>) {
    snapshot = { ...snapshot, ...next };
    listeners.forEach((l) => l());
  }

  /** Connected: a second time in this session means events may have been missed meanwhile. */
  function connected() {
    set({ state: 'connected', error: null });
    if (everConnected) reconnectedListeners.forEach((l) => l());
    everConnected = true;
  }

  async function build(): Promise<HubConnection> {
    const signalr = await import('@microsoft/signalr');
    const built = new signalr.HubConnectionBuilder()
      .withUrl(options.hubUrl ?? serverUrl(REALTIME_HUB_PATH), {
        accessTokenFactory: options.negotiate,
        transport: signalr.HttpTransportType.WebSockets,
        // The hub takes a bearer token, never cookies: so the phone apps' cross-origin negotiate call
        // needs no credentialed CORS (the server allows none).
        withCredentials: false,
      })
      .withAutomaticReconnect([...REALTIME_RECONNECT_DELAYS_MS])
      .configureLogging(signalr.LogLevel.None)
      .build();
    built.serverTimeoutInMilliseconds = REALTIME_SERVER_TIMEOUT_MS;
    built.keepAliveIntervalInMilliseconds = REALTIME_KEEP_ALIVE_MS;
    for (const [event, set] of handlers) for (const h of set) built.on(event, h);
    built.onreconnecting(() => set({ state: 'reconnecting' }));
    built.onreconnected(connected);
    built.onclose((error) => {
      // Closed by us (users === 0), or the reconnect delays ran out: then only a refresh helps.
      if (users > 0)
        set({
          state: 'disconnected',
          error: error ? MESSAGES.refreshPageToReconnect : snapshot.error,
        });
      else set({ state: 'disconnected' });
    });
    return built;
  }

  async function start(): Promise<void> {
    set({ state: 'connecting', error: null });
    try {
      connection ??= await build();
      await connection.start();
      connected();
    } catch (error) {
      const text = error instanceof Error ? error.message : undefined;
      set({
        state: 'disconnected',
        error: text?.startsWith('Negotiation failed') ? text : formatMessage.connectionFailed(text),
      });
    }
  }

  async function stop(): Promise<void> {
    if (!connection) return;
    set({ state: 'disconnecting' });
    try {
      await connection.stop();
    } catch (error) {
      set({ error: formatMessage.disconnectError(error instanceof Error ? error.message : String(error)) });
    } finally {
      everConnected = false;
      set({ state: 'disconnected' });
    }
  }

  /** Brings the connection to what the users want (open while any, closed when none), after what is queued. */
  function settle(options: { retry?: boolean } = {}): Promise<void> {
    queue = queue.then(async () => {
      const closed = snapshot.state === 'disconnected';
      if (users > 0 && closed && (options.retry || snapshot.error !== MESSAGES.refreshPageToReconnect))
        await start();
      else if (users === 0 && !closed) await stop();
    });
    return queue;
  }

  return {
    getSnapshot: () => snapshot,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Listens to a server event for as long as the returned function is not called. */
    on: <E extends RealtimeEventName>(event: E, handler: RealtimeHandler<E>): (() => void) => {
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler);
      connection?.on(event, handler);
      return () => {
        set.delete(handler);
        connection?.off(event, handler);
      };
    },
    /** Called each time the connection is back after it was lost (events sent meanwhile were missed). */
    onReconnected: (listener: () => void): (() => void) => {
      reconnectedListeners.add(listener);
      return () => {
        reconnectedListeners.delete(listener);
      };
    },
    /** The signed-in session needs the connection; the returned function releases it (on sign-out). */
    acquire: (): (() => void) => {
      users += 1;
      void settle();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        users -= 1;
        void settle();
      };
    },
    /** After "please refresh": try again now (the screen has refreshed its data). */
    retry: () => settle({ retry: true }),
    clearError: () => set({ error: null }),
  };
}
export type RealtimeClient = ReturnType<typeof createRealtimeClient>;

/** The hub token: negotiate with the ID token (docs/product.md §7); §8 texts for each way it can fail. */
async function negotiate(): Promise<string> {
  try {
    return (await api.call('realtimeNegotiate')).accessToken;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new Error(MESSAGES.authTokenNotAvailable);
    if (error instanceof ApiError && error.status > 0)
      throw new Error(formatMessage.negotiationFailed(error.status, error.message));
    throw error;
  }
}

export const realtime = createRealtimeClient({ negotiate });
