/**
 * The TCP side of discovery: every host of the subnets × the usual RTSP and HTTP ports, a bounded number of
 * connections at a time, and what answers there identified.
 *
 * - An RTSP port counts when it answers RTSP (`RTSP/1.0 NNN`) to OPTIONS and DESCRIBE of `rtsp://addr:port/`;
 *   a 401 means the camera wants a login.
 * - An HTTP port counts when the ONVIF device service (`/onvif/device_service`) answers SOAP to
 *   GetSystemDateAndTime (which needs no login). GetDeviceInformation then gives the manufacturer and model,
 *   or a NotAuthorized fault (a login is needed); GetServices, or GetCapabilities on older devices, says
 *   whether there is a media service at all, when the device answers them without a login.
 *
 * Everything else (a closed port, a plain web server, a silent listener) is no finding. Nothing here
 * throws on a network failure, and an aborted signal ends every connection at once.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { CameraLogger } from '../types.js';
import {
  identifyOnvifBy,
  rtspFinding,
  type OnvifFinding,
  type PortFinding,
  type RtspFinding,
  type SoapAnswer,
} from './onvif-identify.js';

export type { OnvifFinding, PortFinding, RtspFinding } from './onvif-identify.js';

export const DEFAULT_RTSP_PORTS = [554, 8554];
export const DEFAULT_HTTP_PORTS = [80, 8080, 8000, 8899];
// A home /24 has ~250 silent addresses × 6 ports: at 256 connects in flight one pass of 800 ms timeouts
// takes ~5 s, where 64 took ~19 s. Each attempt is one SYN, harmless for a home router.
export const DEFAULT_SCAN_CONCURRENCY = 256;
export const DEFAULT_CONNECT_TIMEOUT_MS = 800;
export const ONVIF_DEVICE_PATH = '/onvif/device_service';

/** How long an open port may take to answer one RTSP request or one SOAP request. */
const RTSP_ANSWER_TIMEOUT_MS = 2_000;
const SOAP_ANSWER_TIMEOUT_MS = 3_000;
/** Answers are small; a port that sends more than this is not one we want to read. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface ProbeContext {
  connectTimeoutMs: number;
  signal: AbortSignal;
  log?: CameraLogger | undefined;
}

export interface PortScanOptions extends ProbeContext {
  hosts: readonly string[];
  rtspPorts: readonly number[];
  httpPorts: readonly number[];
  concurrency: number;
  onFinding(finding: PortFinding): void;
  /** Identifies an open HTTP port; `identifyOnvif` unless the caller shares its results (discover.ts). */
  identifyOnvif?: (host: string, port: number, socket: Socket) => Promise<OnvifFinding | null>;
}

/**
 * Probes every host × port, `concurrency` at a time, and reports each finding as it is made. Resolves when
 * all probes are done, or soon after `signal` aborts (every open connection is destroyed then).
 */
export async function scanPorts(options: PortScanOptions): Promise<void> {
  const { signal, log } = options;
  const identify =
    options.identifyOnvif ??
    ((host: string, port: number, socket: Socket) =>
      identifyOnvif({ host, port, path: ONVIF_DEVICE_PATH, socket }, options));
  const tasks = options.hosts.flatMap((host) => [
    ...options.rtspPorts.map((port) => ({ host, port, kind: 'rtsp' as const })),
    ...options.httpPorts.map((port) => ({ host, port, kind: 'http' as const })),
  ]);
  let next = 0;
  const worker = async () => {
    while (!signal.aborted && next < tasks.length) {
      const task = tasks[next++]!;
      const socket = await connectTcp(task.host, task.port, options);
      if (!socket) continue;
      try {
        const finding =
          task.kind === 'rtsp'
            ? await identifyRtsp(socket, task.host, task.port, signal)
            : await identify(task.host, task.port, socket);
        if (finding && !signal.aborted) options.onFinding(finding);
      } catch (err) {
        log?.debug({ host: task.host, port: task.port, err: describe(err) }, 'discovery: probe failed');
      } finally {
        socket.destroy();
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, tasks.length));
  await Promise.all(Array.from({ length: workers }, worker));
}

/** A connected socket, or null when the port is closed, silent past the timeout, or the signal aborts. */
export function connectTcp(host: string, port: number, context: ProbeContext): Promise<Socket | null> {
  const { signal } = context;
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    // Errors after the connect (a reset while reading) end the conversation, never the process.
    socket.on('error', () => undefined);
    let settled = false;
    const done = (connected: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', fail);
      socket.off('close', fail);
      if (!connected) socket.destroy();
      resolve(connected ? socket : null);
    };
    const fail = () => done(false);
    const timer = setTimeout(fail, context.connectTimeoutMs);
    signal.addEventListener('abort', fail, { once: true });
    socket.once('connect', () => done(true));
    socket.once('close', fail);
  });
}

// ---- RTSP ----

/** OPTIONS, then DESCRIBE of the root: whether this is an RTSP server, and whether it wants a login. */
export async function identifyRtsp(
  socket: Socket,
  host: string,
  port: number,
  signal: AbortSignal,
): Promise<RtspFinding | null> {
  const conversation = rtspConversation(socket, signal);
  const uri = `rtsp://${host}:${port}/`;
  const options = await conversation.ask(
    `OPTIONS ${uri} RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: Homesitter\r\n\r\n`,
  );
  if (options === null) return null;
  const described =
    options === 401
      ? null
      : await conversation.ask(
          `DESCRIBE ${uri} RTSP/1.0\r\nCSeq: 2\r\nUser-Agent: Homesitter\r\nAccept: application/sdp\r\n\r\n`,
        );
  return rtspFinding(host, port, options, described);
}

/** Requests over one RTSP connection, one at a time; `ask` answers the status code, null for no RTSP answer. */
function rtspConversation(socket: Socket, signal: AbortSignal) {
  let buffer = Buffer.alloc(0);
  /** Body bytes of the previous answer still to be skipped. */
  let skip = 0;
  let ended = false;
  let check: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (skip > 0) {
      const skipped = Math.min(skip, buffer.length);
      buffer = buffer.subarray(skipped);
      skip -= skipped;
    }
    if (buffer.length > MAX_ANSWER_BYTES) socket.destroy();
    check?.();
  });
  socket.once('close', () => {
    ended = true;
    check?.();
  });

  return {
    ask(request: string): Promise<number | null> {
      if (ended || signal.aborted) return Promise.resolve(null);
      return new Promise((resolve) => {
        const finish = (status: number | null) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          check = null;
          resolve(status);
        };
        const onAbort = () => {
          socket.destroy();
          finish(null);
        };
        const timer = setTimeout(() => finish(null), RTSP_ANSWER_TIMEOUT_MS);
        signal.addEventListener('abort', onAbort, { once: true });
        check = () => {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) {
            // Something that is not RTSP (an HTTP server, a banner) need not be read to its end.
            const start = buffer.subarray(0, 5).toString('latin1');
            if (buffer.length >= 5 && start !== 'RTSP/') return finish(null);
            if (ended) finish(null);
            return;
          }
          const head = buffer.subarray(0, end).toString('latin1');
          const status = /^RTSP\/1\.\d (\d{3})\b/.exec(head);
          const length = Number(/^content-length:\s*(\d+)\s*$/im.exec(head)?.[1] ?? 0);
          const rest = buffer.subarray(end + 4);
          const skipped = Math.min(length, rest.length);
          buffer = rest.subarray(skipped);
          skip = length - skipped;
          finish(status ? Number(status[1]) : null);
        };
        socket.write(request);
        check();
      });
    },
  };
}

// ---- ONVIF ----

export interface OnvifTarget {
  host: string;
  port: number;
  /** The device service's path, `/onvif/device_service` unless WS-Discovery named another. */
  path: string;
  /** An already connected socket for the first request (the scan's); later requests connect anew. */
  socket?: Socket | undefined;
}

/**
 * Whether an ONVIF device service answers at the target, and what it says without a login. Null when the
 * port does not answer SOAP.
 */
export async function identifyOnvif(
  target: OnvifTarget,
  context: ProbeContext,
): Promise<OnvifFinding | null> {
  return identifyOnvifBy(target, (body, first) =>
    soapRequest({ ...target, socket: first ? target.socket : undefined }, body, context),
  );
}

/** One SOAP 1.2 POST; null on any network failure, a timeout or an abort. */
async function soapRequest(
  target: OnvifTarget,
  body: string,
  context: ProbeContext,
): Promise<SoapAnswer | null> {
  const socket = target.socket ?? (await connectTcp(target.host, target.port, context));
  if (!socket) return null;
  const { signal } = context;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: SoapAnswer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      socket.destroy();
      resolve(answer);
    };
    const onAbort = () => finish(null);
    const timer = setTimeout(() => finish(null), SOAP_ANSWER_TIMEOUT_MS);
    const request = httpRequest(
      {
        host: target.host,
        port: target.port,
        path: target.path,
        method: 'POST',
        createConnection: () => socket,
        headers: {
          'Content-Type': 'application/soap+xml; charset=utf-8',
          'Content-Length': Buffer.byteLength(body),
          Connection: 'close',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return finish(null);
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish({ status: response.statusCode ?? 0, xml: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', () => finish(null));
      },
    );
    request.on('error', () => finish(null));
    if (signal.aborted) return finish(null);
    signal.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
