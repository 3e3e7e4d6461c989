import { MESSAGES } from '@homesitter/contract/runtime';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeClient } from './realtime';

/** A stand-in for the SignalR connection whose start and stop finish when the test says so. */
const hub = vi.hoisted(() => {
  const deferred = () => {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };
  const state = {
    calls: [] as string[],
    stopping: deferred(),
    reconnected: undefined as undefined | (() => void),
    closed: undefined as undefined | ((error?: Error) => void),
    deferred,
  };
  const connection = {
    serverTimeoutInMilliseconds: 0,
    keepAliveIntervalInMilliseconds: 0,
    on: () => undefined,
    off: () => undefined,
    onreconnecting: () => undefined,
    onreconnected: (fn: () => void) => (state.reconnected = fn),
    onclose: (fn: (error?: Error) => void) => (state.closed = fn),
    start: async () => {
      state.calls.push('start');
    },
    stop: async () => {
      state.calls.push('stop');
      await state.stopping.promise;
      state.calls.push('stopped');
      state.closed?.();
    },
  };
  return { state, connection };
});

vi.mock('@microsoft/signalr', () => {
  class HubConnectionBuilder {
    withUrl() {
      return this;
    }
    withAutomaticReconnect() {
      return this;
    }
    configureLogging() {
      return this;
    }
    build() {
      return hub.connection;
    }
  }
  return { HubConnectionBuilder, HttpTransportType: { WebSockets: 1 }, LogLevel: { None: 6 } };
});

function client() {
  const realtime = createRealtimeClient({ negotiate: async () => 'token', hubUrl: 'http://127.0.0.1/hub' });
  const states: string[] = [];
  realtime.subscribe(() => states.push(realtime.getSnapshot().state));
  return { realtime, states };
}

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true));

describe('the realtime connection of the signed-in session (docs/product.md §4)', () => {
  beforeEach(() => {
    hub.state.calls = [];
    hub.state.stopping = hub.state.deferred();
  });

  it('opens on acquire and closes when released', async () => {
    const { realtime } = client();
    const release = realtime.acquire();
    await until(() => realtime.getSnapshot().state === 'connected');
    release();
    hub.state.stopping.resolve();
    await until(() => realtime.getSnapshot().state === 'disconnected');
    expect(hub.state.calls).toEqual(['start', 'stop', 'stopped']);
  });

  it('opens again once a close still under way has finished, instead of failing against it', async () => {
    const { realtime } = client();
    const release = realtime.acquire();
    await until(() => realtime.getSnapshot().state === 'connected');
    release();
    await until(() => hub.state.calls.includes('stop'));
    realtime.acquire();
    expect(realtime.getSnapshot().state).toBe('disconnecting');
    hub.state.stopping.resolve();
    await until(() => realtime.getSnapshot().state === 'connected');
    expect(hub.state.calls).toEqual(['start', 'stop', 'stopped', 'start']);
    expect(realtime.getSnapshot().error).toBeNull();
  });

  it('tells its listeners when the connection is back after being lost, not on the first connect', async () => {
    const { realtime } = client();
    const reconnected = vi.fn();
    realtime.onReconnected(reconnected);
    realtime.acquire();
    await until(() => realtime.getSnapshot().state === 'connected');
    expect(reconnected).not.toHaveBeenCalled();
    hub.state.reconnected?.();
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it('asks for a refresh when the reconnect delays ran out, and stays closed until retried', async () => {
    const { realtime } = client();
    realtime.acquire();
    await until(() => realtime.getSnapshot().state === 'connected');
    hub.state.closed?.(new Error('Server timeout elapsed'));
    expect(realtime.getSnapshot()).toEqual({
      state: 'disconnected',
      error: MESSAGES.refreshPageToReconnect,
    });
    await realtime.retry();
    expect(realtime.getSnapshot().state).toBe('connected');
  });
});
