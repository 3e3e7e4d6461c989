import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../test-support.js';
import { startOnvifSimulator } from '../testing/onvif-simulator.js';
import { startRtspServer } from '../testing/rtsp-server.js';
import {
  connectTcp,
  identifyOnvif,
  identifyRtsp,
  ONVIF_DEVICE_PATH,
  scanPorts,
  type PortFinding,
  type ProbeContext,
} from './port-probe.js';

const login = { username: 'admin', password: 'pa:ss/word' };
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function context(signal = new AbortController().signal): ProbeContext {
  return { connectTimeoutMs: 800, signal };
}

async function listen(
  server: Server | ReturnType<typeof createHttpServer>,
  host = '127.0.0.1',
): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, host);
  await once(server, 'listening');
  cleanup.push(async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

async function connected(port: number, host = '127.0.0.1'): Promise<Socket> {
  const socket = await connectTcp(host, port, context());
  expect(socket).not.toBeNull();
  cleanup.push(async () => socket!.destroy());
  return socket!;
}

describe('RTSP identification', () => {
  it('knows a camera that wants a login by its 401', async () => {
    const rtsp = await startRtspServer({ auth: login });
    cleanup.push(() => rtsp.close());
    const socket = await connected(rtsp.port);
    expect(await identifyRtsp(socket, '127.0.0.1', rtsp.port, new AbortController().signal)).toEqual({
      kind: 'rtsp',
      address: '127.0.0.1',
      port: rtsp.port,
      url: `rtsp://127.0.0.1:${rtsp.port}`,
      needsCredentials: true,
    });
  });

  it('lists an RTSP server without a login, not knowing yet whether a stream needs one', async () => {
    const rtsp = await startRtspServer();
    cleanup.push(() => rtsp.close());
    const socket = await connected(rtsp.port);
    const finding = await identifyRtsp(socket, '127.0.0.1', rtsp.port, new AbortController().signal);
    expect(finding?.needsCredentials).toBeNull();
  });

  it('ignores a port that answers something other than RTSP', async () => {
    const port = await listen(createHttpServer((_req, res) => res.writeHead(400).end('bad request')));
    const socket = await connected(port);
    expect(await identifyRtsp(socket, '127.0.0.1', port, new AbortController().signal)).toBeNull();
  });
});

describe('ONVIF identification', () => {
  it('knows a strict ONVIF device and that it wants a login', async () => {
    const onvif = await startOnvifSimulator({ ...login, rtspBase: 'rtsp://127.0.0.1:554' });
    cleanup.push(() => onvif.close());
    const finding = await identifyOnvif(
      { host: '127.0.0.1', port: onvif.port, path: ONVIF_DEVICE_PATH },
      context(),
    );
    expect(finding).toEqual({
      kind: 'onvif',
      address: '127.0.0.1',
      port: onvif.port,
      xaddr: onvif.url,
      manufacturer: null,
      model: null,
      needsCredentials: true,
      media: null,
    });
    // It asked without a login and never sent one.
    expect(onvif.requests().every((request) => request.authenticated === null)).toBe(true);
  });

  it('reads make and model, and a missing media service, from a device that tells without a login', async () => {
    const onvif = await startOnvifSimulator({
      ...login,
      rtspBase: 'rtsp://127.0.0.1:554',
      manufacturer: 'Acme &amp; Sons',
      model: 'Door 7',
      mediaService: false,
      openOperations: ['GetSystemDateAndTime', 'GetDeviceInformation', 'GetServices'],
    });
    cleanup.push(() => onvif.close());
    const finding = await identifyOnvif(
      { host: '127.0.0.1', port: onvif.port, path: ONVIF_DEVICE_PATH },
      context(),
    );
    expect(finding).toMatchObject({
      manufacturer: 'Acme & Sons',
      model: 'Door 7',
      needsCredentials: null,
      media: false,
    });
  });

  it('sees the media service of a camera that answers GetCapabilities only', async () => {
    const onvif = await startOnvifSimulator({
      ...login,
      rtspBase: 'rtsp://127.0.0.1:554',
      openOperations: ['GetSystemDateAndTime', 'GetCapabilities'],
    });
    cleanup.push(() => onvif.close());
    const finding = await identifyOnvif(
      { host: '127.0.0.1', port: onvif.port, path: ONVIF_DEVICE_PATH },
      context(),
    );
    expect(finding).toMatchObject({ needsCredentials: true, media: true });
  });

  it('ignores a plain web server', async () => {
    const port = await listen(
      createHttpServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Envelope</body></html>');
      }),
    );
    expect(await identifyOnvif({ host: '127.0.0.1', port, path: ONVIF_DEVICE_PATH }, context())).toBeNull();
  });

  it('gives up on a closed port', async () => {
    const port = await closedPort();
    expect(await identifyOnvif({ host: '127.0.0.1', port, path: ONVIF_DEVICE_PATH }, context())).toBeNull();
  });
});

describe('scanPorts', () => {
  it('probes exactly the hosts and ports given, a bounded number at a time', async () => {
    // One listener on every loopback address: it sees which addresses are probed, and how many probes wait
    // for its answer at once (each waits until it answers, not RTSP, after a moment).
    let waiting = 0;
    let most = 0;
    const seen: string[] = [];
    const port = await listen(
      createServer((socket) => {
        seen.push(socket.localAddress ?? '');
        waiting += 1;
        most = Math.max(most, waiting);
        socket.on('error', () => undefined);
        socket.resume();
        setTimeout(() => {
          waiting -= 1;
          socket.end('SSH-2.0-OpenSSH_9.6\r\n');
        }, 30);
      }),
      '0.0.0.0',
    );
    const hosts = Array.from({ length: 20 }, (_, i) => `127.0.3.${i + 1}`);
    const findings: PortFinding[] = [];
    await scanPorts({
      ...context(),
      hosts,
      rtspPorts: [port],
      httpPorts: [],
      concurrency: 4,
      onFinding: (finding) => findings.push(finding),
    });
    expect(findings).toEqual([]);
    expect(seen.sort()).toEqual([...hosts].sort());
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThan(1);
  });

  it('reports the RTSP and ONVIF ports it identifies, and nothing for closed ones', async () => {
    const rtsp = await startRtspServer({ auth: login });
    cleanup.push(() => rtsp.close());
    const onvif = await startOnvifSimulator({ ...login, rtspBase: `rtsp://127.0.0.1:${rtsp.port}` });
    cleanup.push(() => onvif.close());
    const findings: PortFinding[] = [];
    await scanPorts({
      ...context(),
      hosts: ['127.0.0.1'],
      rtspPorts: [rtsp.port, await closedPort()],
      httpPorts: [onvif.port, await closedPort()],
      concurrency: 64,
      onFinding: (finding) => findings.push(finding),
    });
    expect(findings.map((f) => [f.kind, f.port, f.needsCredentials]).sort()).toEqual(
      [
        ['onvif', onvif.port, true],
        ['rtsp', rtsp.port, true],
      ].sort(),
    );
  });

  it('ends at once when aborted, closing what it holds open', async () => {
    // A listener that accepts and never answers: each probe would wait for its answer.
    let open = 0;
    const port = await listen(
      createServer((socket) => {
        open += 1;
        socket.on('close', () => (open -= 1));
        socket.on('error', () => undefined);
        socket.resume();
      }),
    );
    const controller = new AbortController();
    const scan = scanPorts({
      ...context(controller.signal),
      hosts: ['127.0.0.1'],
      rtspPorts: [port],
      httpPorts: [port],
      concurrency: 4,
      onFinding: () => undefined,
    });
    while (open < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    controller.abort();
    await scan;
    expect(Date.now() - started).toBeLessThan(1_000);
    while (open > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  });
});
