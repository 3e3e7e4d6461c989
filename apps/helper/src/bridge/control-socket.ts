import type { HelperToServerMessage, ServerToHelperMessage } from '@homesitter/contract';
import WebSocket from 'ws';
import { z } from 'zod';
import { createBackoff } from '../backoff.js';
import type { Logger } from '../logger.js';

/** The server's messages on the control socket (the contract's `ServerToHelperMessage`), checked. */
const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('cameras'),
    cameras: z.array(
      z.object({
        camera_uuid: z.string(),
        name: z.string(),
        private: z.boolean(),
        motion_sensitivity: z.number(),
      }),
    ),
  }),
  z.object({ type: z.literal('live-start'), camera_uuid: z.string() }),
  z.object({ type: z.literal('live-stop'), camera_uuid: z.string() }),
]) satisfies z.ZodType<ServerToHelperMessage>;

export interface ControlSocketOptions {
  /** `ws(s)://…/api/helper/connect` */
  url: string;
  /** The bearer token; `fresh` asks for a new one (the server refused the last). */
  token(fresh: boolean): Promise<string | null>;
  hello(): Promise<HelperToServerMessage>;
  /** After the hello: send what the server should know (the cameras' states). */
  onOpen(): void;
  onMessage(message: ServerToHelperMessage): void;
  log: Logger;
  /** A ping this often; a connection that answered no ping since the last one is dropped. Default 30 s. */
  heartbeatMs?: number;
}

export interface ControlSocket {
  start(): void;
  /** Closes and opens again at once (a new token). */
  reconnect(): void;
  /** Sends when open; answers whether it was sent (the bridge sends every state again on open). */
  send(message: HelperToServerMessage): boolean;
  stop(): Promise<void>;
}

/**
 * The helper's one link to the server for bridged cameras: an outbound WebSocket (nothing listens at
 * home), opened with the bearer token, `hello` first, and opened again whenever it drops (1 s doubling to
 * 30 s, with jitter) or the token is refreshed.
 */
export function createControlSocket(options: ControlSocketOptions): ControlSocket {
  const { log } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const backoff = createBackoff({ initialMs: 1_000, maxMs: 30_000 });
  let running = false;
  let socket: WebSocket | undefined;
  /** The socket the hello went out on: only then does anything else go out. */
  let greeted: WebSocket | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let freshToken = false;

  function scheduleConnect(delayMs = backoff.next()): void {
    clearTimeout(retryTimer);
    if (!running) return;
    retryTimer = setTimeout(() => void connect(), delayMs);
  }

  async function connect(): Promise<void> {
    try {
      await open();
    } catch (err) {
      log.error({ err: String(err) }, 'the control connection could not be opened');
      scheduleConnect();
    }
  }

  async function open(): Promise<void> {
    if (!running || socket) return;
    const token = await options.token(freshToken).catch(() => null);
    freshToken = false;
    if (!running || socket) return;
    if (!token) return scheduleConnect();

    const ws = new WebSocket(options.url, {
      headers: { authorization: `Bearer ${token}` },
      handshakeTimeout: 15_000,
    });
    socket = ws;
    let alive = true;
    let heartbeat: NodeJS.Timeout | undefined;

    ws.on('open', () => {
      log.info({}, 'connected to the server for bridged cameras');
      options.hello().then(
        (hello) => {
          if (ws.readyState !== WebSocket.OPEN || socket !== ws) return;
          ws.send(JSON.stringify(hello));
          greeted = ws;
          options.onOpen();
        },
        (err: unknown) => {
          log.error({ err: String(err) }, 'the hello could not be made');
          ws.terminate();
        },
      );
      heartbeat = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        ws.ping();
      }, heartbeatMs);
    });
    ws.on('pong', () => (alive = true));
    ws.on('message', (data, isBinary) => {
      alive = true;
      if (isBinary) return;
      let json: unknown;
      try {
        json = JSON.parse(rawText(data));
      } catch {
        return log.warn({}, 'the server sent a control message that is not JSON');
      }
      const parsed = serverMessageSchema.safeParse(json);
      if (!parsed.success)
        return log.debug({ json: JSON.stringify(json).slice(0, 200) }, 'unknown control message');
      // The server speaks: the session is good, so the next drop starts over at 1 s.
      backoff.reset();
      options.onMessage(parsed.data);
    });
    ws.on('error', (err) => {
      const status = /Unexpected server response: (\d+)/.exec(err.message)?.[1];
      if (status === '401') freshToken = true;
      log.warn({ err: err.message }, 'the control connection failed');
    });
    ws.on('close', (code) => {
      clearInterval(heartbeat);
      // A socket replaced on purpose (`reconnect`) is not mourned.
      if (socket !== ws) return;
      socket = undefined;
      if (code === 4401 || code === 1008) freshToken = true;
      scheduleConnect();
    });
  }

  return {
    start() {
      if (running) return;
      running = true;
      void connect();
    },
    reconnect() {
      if (!running) return;
      const ws = socket;
      socket = undefined;
      clearTimeout(retryTimer);
      ws?.close(1000, 'new token');
      void connect();
    },
    send(message) {
      if (!socket || greeted !== socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    async stop() {
      running = false;
      clearTimeout(retryTimer);
      const ws = socket;
      socket = undefined;
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          ws.terminate();
          resolve();
        }, 2_000);
        ws.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.close(1000, 'helper stopping');
      });
    },
  };
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
