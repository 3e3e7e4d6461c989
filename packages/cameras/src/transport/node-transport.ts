/**
 * The camera transport (transport.ts) on Node's dgram, net and http: what the phone's native plugin does, for
 * the tests, the web app's browser tests (behind its simulated native bridge) and the bench. It mirrors the
 * plugin's Java (apps/web/plugins/lan-discovery) call for call: one socket per UDP probe, a connect-and-close
 * port check, one HTTP or RTSP request answered again once with the login when the camera challenges it.
 */
import { createSocket } from 'node:dgram';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { authorization, parseChallenge } from './authorization.js';
import type {
  CameraTransport,
  ExchangeResult,
  HttpExchangeRequest,
  RtspExchangeRequest,
  TcpCheckRequest,
  UdpAnswer,
  UdpProbeRequest,
} from './transport.js';

/** RTSP answers in discovery (an OPTIONS, an SDP) are small; anything larger is not a camera's. */
const MAX_RTSP_ANSWER_BYTES = 64 * 1024;

export function createNodeTransport(): CameraTransport {
  return { udpProbe, tcpCheck, http, rtsp };
}

async function udpProbe(request: UdpProbeRequest): Promise<{ answers: UdpAnswer[] }> {
  const socket = createSocket({ type: 'udp4' });
  socket.on('error', () => undefined);
  const bound = await new Promise<boolean>((resolve) => {
    socket.once('error', () => resolve(false));
    socket.bind(0, request.localAddress, () => resolve(true));
  });
  if (!bound) {
    socket.close();
    return { answers: [] };
  }
  if (request.multicast && request.localAddress) socket.setMulticastInterface(request.localAddress);
  const answers: UdpAnswer[] = [];
  socket.on('message', (message, remote) => {
    if (message.length <= request.maxBytes) {
      answers.push({ address: remote.address, text: message.toString('utf8') });
    }
  });
  const payloads = request.messages.map((message) => Buffer.from(message));
  const sendRound = () => {
    for (const target of request.targets) {
      for (const payload of payloads) socket.send(payload, target.port, target.address, () => undefined);
    }
  };
  for (let round = 0; round < request.repeats; round++) {
    if (round > 0) await delay(request.intervalMs);
    sendRound();
  }
  await delay(request.listenMs);
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return { answers };
}

async function tcpCheck(request: TcpCheckRequest): Promise<{ open: { host: string; port: number }[] }> {
  const checked = await Promise.all(
    request.targets.map(async (target) => {
      const socket = await connectTcp(target.host, target.port, request.timeoutMs);
      socket?.destroy();
      return socket ? target : null;
    }),
  );
  return { open: checked.filter((target) => target !== null) };
}

async function http(request: HttpExchangeRequest): Promise<ExchangeResult> {
  const first = await httpOnce(request, undefined);
  if ('error' in first || first.status !== 401 || request.username === undefined) return first.result;
  const challenge = parseChallenge(first.result.headers['www-authenticate']);
  if (!challenge) return first.result;
  const url = new URL(request.url);
  const header = authorization(
    challenge,
    { username: request.username, password: request.password ?? '' },
    { method: request.method, uri: url.pathname + url.search },
  );
  return (await httpOnce(request, header)).result;
}

type HttpOutcome =
  | { error: 'unreachable' | 'timed_out'; result: ExchangeResult }
  | { status: number; result: Extract<ExchangeResult, { status: number }> };

function httpOnce(
  request: HttpExchangeRequest,
  authorizationHeader: string | undefined,
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const fail = (error: 'unreachable' | 'timed_out') => finish({ error, result: { error } });
    const finish = (outcome: HttpOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => fail('timed_out'), request.timeoutMs);
    const outgoing = httpRequest(
      request.url,
      {
        method: request.method,
        headers: {
          ...request.headers,
          ...(authorizationHeader ? { Authorization: authorizationHeader } : {}),
          ...(request.body !== undefined ? { 'Content-Length': Buffer.byteLength(request.body) } : {}),
          Connection: 'close',
        },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBytes) return fail('unreachable');
          chunks.push(chunk);
        });
        response.on('error', () => fail('unreachable'));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          const status = response.statusCode ?? 0;
          finish({
            status,
            result: {
              status,
              headers: flatHeaders(response.headers),
              body: request.responseType === 'base64' ? body.toString('base64') : body.toString('utf8'),
            },
          });
        });
      },
    );
    outgoing.on('error', () => fail('unreachable'));
    outgoing.end(request.body);
  });
}

async function rtsp(request: RtspExchangeRequest): Promise<ExchangeResult> {
  const url = new URL(request.url);
  const host = url.hostname;
  const port = Number(url.port || 554);
  const socket = await connectTcp(host, port, request.timeoutMs);
  if (!socket) return { error: 'unreachable' };
  try {
    const reader = rtspReader(socket);
    const ask = (cseq: number, authorizationHeader?: string) => {
      socket.write(
        `${request.method} ${request.url} RTSP/1.0\r\nCSeq: ${cseq}\r\nUser-Agent: Homesitter\r\n` +
          (request.method === 'DESCRIBE' ? 'Accept: application/sdp\r\n' : '') +
          (authorizationHeader ? `Authorization: ${authorizationHeader}\r\n` : '') +
          '\r\n',
      );
      return reader.next(request.timeoutMs);
    };
    const first = await ask(1);
    if ('error' in first || first.status !== 401 || request.username === undefined) return first;
    const challenge = parseChallenge(first.headers['www-authenticate']);
    if (!challenge) return first;
    return await ask(
      2,
      authorization(
        challenge,
        { username: request.username, password: request.password ?? '' },
        { method: request.method, uri: request.url },
      ),
    );
  } finally {
    socket.destroy();
  }
}

/** Reads RTSP answers off one connection, one at a time (head, then Content-Length bytes of body). */
function rtspReader(socket: Socket) {
  let buffer = Buffer.alloc(0);
  let ended = false;
  let check: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    check?.();
  });
  socket.once('close', () => {
    ended = true;
    check?.();
  });
  return {
    next(timeoutMs: number): Promise<ExchangeResult> {
      return new Promise((resolve) => {
        const finish = (result: ExchangeResult) => {
          clearTimeout(timer);
          check = null;
          resolve(result);
        };
        const timer = setTimeout(() => finish({ error: 'timed_out' }), timeoutMs);
        check = () => {
          if (buffer.length > MAX_RTSP_ANSWER_BYTES) return finish({ error: 'unreachable' });
          const end = buffer.indexOf('\r\n\r\n');
          if (end >= 0) {
            const head = buffer.subarray(0, end).toString('latin1');
            const [statusLine = '', ...lines] = head.split('\r\n');
            const status = /^RTSP\/1\.\d (\d{3})\b/.exec(statusLine);
            if (!status) return finish({ error: 'unreachable' });
            const headers: Record<string, string> = {};
            for (const line of lines) {
              const colon = line.indexOf(':');
              if (colon > 0)
                headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
            }
            const length = Number(headers['content-length'] ?? 0);
            if (buffer.length >= end + 4 + length) {
              const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
              buffer = buffer.subarray(end + 4 + length);
              return finish({ status: Number(status[1]), headers, body });
            }
          }
          if (ended) finish({ error: 'unreachable' });
        };
        check();
      });
    },
  };
}

function connectTcp(host: string, port: number, timeoutMs: number): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.on('error', () => undefined);
    const done = (connected: boolean) => {
      clearTimeout(timer);
      socket.off('close', onClose);
      if (!connected) socket.destroy();
      resolve(connected ? socket : null);
    };
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('close', onClose);
  });
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
