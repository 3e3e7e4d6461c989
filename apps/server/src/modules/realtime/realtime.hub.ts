import { REALTIME_KEEP_ALIVE_MS, REALTIME_SERVER_TIMEOUT_MS } from '@homesitter/contract';
import type { WebSocket } from 'ws';
import type { Logger } from '../../platform/logger.js';
import {
  closeFrame,
  frame,
  HANDSHAKE_OK,
  invocationFrame,
  MessageType,
  parseRecord,
  PING_FRAME,
  splitRecords,
} from './hub.protocol.js';

/** The largest message (and unfinished record) a hub client may send; the socket allows more for others. */
export const REALTIME_MAX_MESSAGE_BYTES = 64 * 1024;

interface Connection {
  socket: WebSocket;
  userId: string;
  ready: boolean;
  lastSeen: number;
  buffer: string;
}

export interface HubOptions {
  log: Logger;
  /** How often the hub pings every connection (docs/product.md §9 keep-alive: 15 s). */
  pingIntervalMs?: number;
  /** A connection silent this long is closed (the client pings every 15 s; docs/product.md §9 server timeout: 30 s). */
  clientTimeoutMs?: number;
  now?: () => number;
}

/**
 * The connections this instance holds, by user, speaking the SignalR JSON hub protocol. It only delivers;
 * which instance publishes what is the fan-out's concern.
 */
export function createHub(options: HubOptions) {
  const { log } = options;
  const now = options.now ?? Date.now;
  const clientTimeoutMs = options.clientTimeoutMs ?? REALTIME_SERVER_TIMEOUT_MS;
  const byUser = new Map<string, Set<Connection>>();
  let total = 0;

  function add(conn: Connection) {
    let set = byUser.get(conn.userId);
    if (!set) byUser.set(conn.userId, (set = new Set()));
    set.add(conn);
    total += 1;
  }

  function remove(conn: Connection) {
    const set = byUser.get(conn.userId);
    if (!set?.delete(conn)) return;
    total -= 1;
    if (set.size === 0) byUser.delete(conn.userId);
  }

  function send(conn: Connection, data: string) {
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(data);
  }

  function onRecord(conn: Connection, record: string) {
    const message = parseRecord(record);
    if (!conn.ready) {
      if (message?.protocol !== 'json' || message.version !== 1) {
        send(conn, frame({ error: `Requested protocol '${message?.protocol ?? '?'}' is not available.` }));
        conn.socket.close(1002, 'unsupported protocol');
        return;
      }
      conn.ready = true;
      send(conn, HANDSHAKE_OK);
      add(conn);
      return;
    }
    switch (message?.type) {
      case MessageType.Ping:
        return;
      case MessageType.Close:
        conn.socket.close(1000);
        return;
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
        // The hub has no client-callable methods; answer so a caller awaiting a result is not left hanging.
        if (message.invocationId)
          send(
            conn,
            frame({
              type: MessageType.Completion,
              invocationId: message.invocationId,
              error: `Unknown hub method '${message.target ?? ''}'`,
            }),
          );
        return;
      default:
        return;
    }
  }

  const pingTimer = setInterval(() => {
    const cutoff = now() - clientTimeoutMs;
    for (const set of byUser.values())
      for (const conn of set) {
        if (conn.lastSeen < cutoff) {
          send(conn, closeFrame('Server timeout elapsed without receiving a message from the client.', true));
          conn.socket.close(1000);
        } else send(conn, PING_FRAME);
      }
  }, options.pingIntervalMs ?? REALTIME_KEEP_ALIVE_MS);
  pingTimer.unref();

  return {
    /** Takes over an authenticated socket: handshake, then pings and deliveries until it closes. */
    accept(socket: WebSocket, userId: string) {
      const conn: Connection = { socket, userId, ready: false, lastSeen: now(), buffer: '' };
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        conn.lastSeen = now();
        const chunk = Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data as ArrayBuffer).toString('utf8');
        if (isBinary && !conn.ready) log.debug('binary handshake ignored');
        if (Buffer.byteLength(chunk) + Buffer.byteLength(conn.buffer) > REALTIME_MAX_MESSAGE_BYTES) {
          conn.socket.close(1009, 'message too big');
          return;
        }
        const { records, rest } = splitRecords(conn.buffer + chunk);
        conn.buffer = rest;
        for (const record of records) onRecord(conn, record);
      });
      // A socket that never completes the handshake is not kept.
      const handshakeTimer = setTimeout(() => {
        if (!conn.ready) conn.socket.close(1002, 'no handshake');
      }, clientTimeoutMs);
      handshakeTimer.unref();
      socket.on('close', () => {
        clearTimeout(handshakeTimer);
        remove(conn);
      });
      socket.on('error', (err) => log.debug({ err: err.message }, 'realtime socket error'));
    },

    /** Sends one event to every connection of the user on this instance; answers how many got it. */
    deliver(userId: string, event: string, payload: unknown): number {
      const set = byUser.get(userId);
      if (!set) return 0;
      const data = invocationFrame(event, payload);
      for (const conn of set) send(conn, data);
      return set.size;
    },

    connectionCount: () => total,
    connectionsOf: (userId: string) => byUser.get(userId)?.size ?? 0,

    /** Server shutdown: every client is told it may reconnect (to another instance, or this one restarted). */
    closeAll() {
      clearInterval(pingTimer);
      const data = closeFrame(undefined, true);
      for (const set of byUser.values())
        for (const conn of set) {
          send(conn, data);
          conn.socket.close(1001, 'server shutting down');
        }
    },
  };
}
export type Hub = ReturnType<typeof createHub>;
