/**
 * A home network of ONVIF cameras on loopback, for discovery tests and the discovery bench: each camera on
 * its own address (127.0.0.2, 127.0.0.3, … on Linux every 127.0.0.0/8 address is local) with an ONVIF device
 * service, an RTSP server and a WS-Discovery responder, plus, when asked, devices that answer WS-Discovery
 * but are no camera and web servers that are no camera either.
 *
 * All cameras use the same ONVIF port and the same RTSP port, so a scan of `127.0.0.0/24` on those two ports
 * finds exactly them. One RTSP server listens on every camera's address and one publisher (a looped
 * fixture, H.264 copied, no encoding) feeds it, so ten streaming cameras cost about one camera's CPU.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatIpv4, parseIpv4 } from '../discovery/subnets.js';
import { startOnvifSimulator, type OnvifSimulator } from './onvif-simulator.js';
import { mainAndSub, type Publication } from './publisher.js';
import { startRtspServer, type RtspTestServer } from './rtsp-server.js';
import { startWsDiscoveryResponder, type WsDiscoveryResponder } from './ws-discovery-responder.js';

export interface SimulatedCamerasOptions {
  count: number;
  /** The first camera's address; the others follow it. Default 127.0.0.2. */
  firstAddress?: string;
  /** The WS-Discovery group port the responders listen on (pick a free one per test). */
  wsDiscoveryPort: number;
  /** The login every camera asks for (ONVIF and RTSP); default admin / admin. */
  credentials?: { username: string; password: string };
  /** Extra devices, after the cameras, that answer WS-Discovery as `tds:Device` only (recorders, door controllers). */
  unsupported?: number;
  /** Extra plain web servers, after those, on the cameras' ONVIF port: not cameras, never to be listed. */
  plainHttp?: number;
  /** Publish H.264 main and sub streams, so `configureCamera` succeeds. Default false (nothing to play). */
  media?: boolean;
}

export interface SimulatedCamera {
  address: string;
  onvifPort: number;
  rtspPort: number;
  /** The main stream, `rtsp://ADDRESS:PORT/main` (without a login). */
  rtspUrl: string;
  /** The device service, as WS-Discovery announces it. */
  xaddr: string;
  username: string;
  password: string;
  /** What its scopes and device information say. */
  name: string;
  manufacturer: string;
  model: string;
}

export interface SimulatedCameras {
  cameras: SimulatedCamera[];
  /** The devices that answer WS-Discovery but are no camera. */
  unsupported: { address: string; name: string }[];
  /** The plain web servers. */
  webServers: { address: string; port: number }[];
  onvifPort: number;
  rtspPort: number;
  /** The WS-Discovery responders, e.g. to count the probes they heard. */
  responders: WsDiscoveryResponder[];
  stop(): Promise<void>;
}

export const SIMULATED_MANUFACTURER = 'Homesitter';
export const SIMULATED_MODEL = 'SimCam 100';
const ONVIF_PATH = '/onvif/device_service';
/** Ports are picked once and then taken on every address; another process may hold one there: try again. */
const PORT_ATTEMPTS = 10;

export async function startSimulatedCameras(options: SimulatedCamerasOptions): Promise<SimulatedCameras> {
  const credentials = options.credentials ?? { username: 'admin', password: 'admin' };
  const unsupportedCount = options.unsupported ?? 0;
  const plainCount = options.plainHttp ?? 0;
  const addresses = consecutiveAddresses(
    options.firstAddress ?? '127.0.0.2',
    options.count + unsupportedCount + plainCount,
  );
  const cameraAddresses = addresses.slice(0, options.count);
  const unsupportedAddresses = addresses.slice(options.count, options.count + unsupportedCount);
  const plainAddresses = addresses.slice(options.count + unsupportedCount);

  const stops: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };

  try {
    const { rtsp, onvifPort } = await listenOnSharedPorts(
      cameraAddresses,
      plainAddresses,
      credentials,
      stops,
    );
    const rtspPort = rtsp.port;

    if (options.media && cameraAddresses.length > 0) {
      const publication: Publication = await mainAndSub(`rtsp://${cameraAddresses[0]}:${rtspPort}`, 'still');
      stops.push(() => publication.stop());
      await Promise.all([rtsp.waitForPublisher('/main'), rtsp.waitForPublisher('/sub')]);
    }

    const cameras = cameraAddresses.map((address, index): SimulatedCamera => ({
      address,
      onvifPort,
      rtspPort,
      rtspUrl: `rtsp://${address}:${rtspPort}/main`,
      xaddr: `http://${address}:${onvifPort}${ONVIF_PATH}`,
      username: credentials.username,
      password: credentials.password,
      name: `Camera ${index + 1}`,
      manufacturer: SIMULATED_MANUFACTURER,
      model: SIMULATED_MODEL,
    }));
    const unsupported = unsupportedAddresses.map((address, index) => ({
      address,
      name: `Door controller ${index + 1}`,
    }));

    const responders = await Promise.all([
      ...cameras.map((camera) =>
        startWsDiscoveryResponder({
          address: camera.address,
          port: options.wsDiscoveryPort,
          xaddrs: [camera.xaddr],
          scopes: [
            'onvif://www.onvif.org/type/video_encoder',
            'onvif://www.onvif.org/Profile/Streaming',
            `onvif://www.onvif.org/name/${encodeURIComponent(camera.name)}`,
            `onvif://www.onvif.org/hardware/${encodeURIComponent(camera.model)}`,
            `onvif://www.onvif.org/mfr/${encodeURIComponent(camera.manufacturer)}`,
          ],
        }),
      ),
      ...unsupported.map((device) =>
        startWsDiscoveryResponder({
          address: device.address,
          port: options.wsDiscoveryPort,
          xaddrs: [`http://${device.address}:${onvifPort}${ONVIF_PATH}`],
          types: ['tds:Device'],
          scopes: [
            'onvif://www.onvif.org/type/access_control',
            `onvif://www.onvif.org/name/${encodeURIComponent(device.name)}`,
            'onvif://www.onvif.org/hardware/SimDoor%201',
          ],
        }),
      ),
    ]);
    for (const responder of responders) stops.push(() => responder.close());

    return {
      cameras,
      unsupported,
      webServers: plainAddresses.map((address) => ({ address, port: onvifPort })),
      onvifPort,
      rtspPort,
      responders,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * One RTSP server on every camera address, an ONVIF simulator per camera and the plain web servers, all on
 * two port numbers picked once. Registers each started piece's stop in `stops`.
 */
async function listenOnSharedPorts(
  cameraAddresses: string[],
  plainAddresses: string[],
  credentials: { username: string; password: string },
  stops: Array<() => Promise<unknown>>,
): Promise<{ rtsp: RtspTestServer; onvifPort: number }> {
  for (let attempt = 1; ; attempt++) {
    const started: Array<() => Promise<unknown>> = [];
    try {
      const rtsp = await startRtspServer({
        auth: credentials,
        hosts: cameraAddresses.length > 0 ? cameraAddresses : ['127.0.0.1'],
      });
      started.push(() => rtsp.close());
      let onvifPort = 0;
      for (const address of cameraAddresses) {
        const onvif: OnvifSimulator = await startOnvifSimulator({
          ...credentials,
          host: address,
          port: onvifPort,
          rtspBase: `rtsp://${address}:${rtsp.port}`,
          manufacturer: SIMULATED_MANUFACTURER,
          model: SIMULATED_MODEL,
          serial: `SIM-${address}`,
        });
        started.push(() => onvif.close());
        onvifPort = onvif.port;
      }
      for (const address of plainAddresses) {
        const server = await startPlainWebServer(address, onvifPort);
        started.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
        onvifPort = (server.address() as AddressInfo).port;
      }
      stops.push(...started);
      return { rtsp, onvifPort };
    } catch (err) {
      for (const stop of started.reverse()) await stop().catch(() => undefined);
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === PORT_ATTEMPTS) throw err;
    }
  }
}

/** A web server that is no camera: a home page for every request, ONVIF's path included. */
function startPlainWebServer(address: string, port: number): Promise<Server> {
  const server = createHttpServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
    res.end('<!doctype html><html><head><title>Router</title></head><body>Welcome</body></html>');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve(server));
  });
}

function consecutiveAddresses(first: string, count: number): string[] {
  const start = parseIpv4(first);
  if (start === null || !first.startsWith('127.')) {
    throw new RangeError(`simulated cameras live on loopback: ${first} is not a 127.x.y.z address`);
  }
  const addresses = Array.from({ length: count }, (_, index) => formatIpv4(start + index));
  if (!addresses.every((address) => address.startsWith('127.'))) {
    throw new RangeError(`${count} simulated devices from ${first} run past the loopback network`);
  }
  return addresses;
}
