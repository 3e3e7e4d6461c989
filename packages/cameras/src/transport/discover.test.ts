/**
 * The phone's discovery (discoverOverTransport) on the Node transport against a home network simulated on
 * 127.0.1.0/28: three ONVIF cameras, a door controller that answers WS-Discovery but is no camera, and a web
 * server that is no camera either. WS-Discovery both ways the phones send it: multicast on `lo` (Android)
 * and unicast to every address from another loopback source, 127.0.1.1 (iOS).
 */
import type { DiscoveredDevice } from '@homesitter/contract';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_A_CAMERA_REASON } from '../discovery/device-book.js';
import {
  SIMULATED_MANUFACTURER,
  SIMULATED_MODEL,
  startSimulatedCameras,
  type SimulatedCameras,
} from '../testing/simulated-cameras.js';
import { discoverOverTransport, type TransportDiscoverOptions } from './discover.js';
import { createNodeTransport } from './node-transport.js';

const LOGIN = { username: 'owner', password: 'se:cret/pw' };
const SUBNET = '127.0.1.0/28';

let wsPort: number;
let network: SimulatedCameras;

beforeAll(async () => {
  wsPort = await freeUdpPort();
  network = await startSimulatedCameras({
    count: 3,
    firstAddress: '127.0.1.2',
    wsDiscoveryPort: wsPort,
    credentials: LOGIN,
    unsupported: 1,
    plainHttp: 1,
  });
});

afterAll(async () => {
  await network?.stop();
});

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

function options(overrides: Partial<TransportDiscoverOptions> = {}): TransportDiscoverOptions {
  return {
    transport: createNodeTransport(),
    subnets: [SUBNET],
    wsDiscovery: { mode: 'multicast', port: wsPort, localAddress: '127.0.0.1' },
    rtspPorts: [network.rtspPort],
    httpPorts: [network.onvifPort],
    ...overrides,
  };
}

function expectTheNetwork(devices: DiscoveredDevice[]) {
  const cameras = devices.filter((device) => device.supported);
  expect(cameras.map((device) => device.address)).toEqual(network.cameras.map((camera) => camera.address));
  for (const [index, device] of cameras.entries()) {
    const camera = network.cameras[index]!;
    expect(device).toMatchObject({
      manufacturer: SIMULATED_MANUFACTURER,
      model: SIMULATED_MODEL,
      name: camera.name,
      onvif: { port: network.onvifPort, xaddr: camera.xaddr },
      rtsp: { port: network.rtspPort, url: `rtsp://${camera.address}:${network.rtspPort}` },
      needs_credentials: true,
    });
  }
  const door = devices.find((device) => device.address === network.unsupported[0]!.address);
  expect(door).toMatchObject({ supported: false, unsupported_reason: NOT_A_CAMERA_REASON });
  // The plain web server answers HTTP but not ONVIF: never listed.
  expect(devices.some((device) => device.address === network.webServers[0]!.address)).toBe(false);
}

describe('discoverOverTransport (Node transport)', () => {
  it('finds the cameras by WS-Discovery multicast and the port check, as an Android phone does', async () => {
    const reported: DiscoveredDevice[] = [];
    const result = await discoverOverTransport(options({ onDevice: (device) => reported.push(device) }));
    expect(result.timedOut).toBe(false);
    expect(result.subnets).toEqual([SUBNET]);
    expectTheNetwork(result.devices);
    expect(
      [...result.devices.find((d) => d.address === network.cameras[0]!.address)!.found_by].sort(),
    ).toEqual(['port-scan', 'ws-discovery']);
    // Every device listed at the end was reported as it was found.
    for (const device of result.devices) {
      expect(reported.filter((seen) => seen.id === device.id).at(-1)).toEqual(device);
    }
  });

  it('finds them by unicast probes to every address from another loopback source, as an iPhone does', async () => {
    const result = await discoverOverTransport(
      options({ wsDiscovery: { mode: 'unicast', port: wsPort, localAddress: '127.0.1.1' }, httpPorts: [] }),
    );
    // Without the HTTP check only WS-Discovery names the ONVIF service: the unicast probes reached them.
    expectTheNetwork(result.devices);
    const cameras = result.devices.filter((device) => device.supported);
    expect(cameras.every((device) => device.found_by.includes('ws-discovery'))).toBe(true);
  });

  it('stops at its timeout with what it found, and at once when aborted', async () => {
    const timedOut = await discoverOverTransport(options({ wsDiscovery: false, timeoutMs: 1 }));
    expect(timedOut.timedOut).toBe(true);

    const controller = new AbortController();
    controller.abort();
    const aborted = await discoverOverTransport(options({ signal: controller.signal }));
    expect(aborted).toEqual({ devices: [], subnets: [SUBNET], timedOut: false });
  });

  it('refuses a subnet that is not one', async () => {
    await expect(discoverOverTransport(options({ subnets: ['192.168.1/24'] }))).rejects.toThrow(
      '"192.168.1/24" is not an IPv4 subnet',
    );
  });
});
