/**
 * discoverCameras against a home network simulated on loopback: ONVIF cameras on 127.0.0.2… answering
 * WS-Discovery (multicast on `lo`, on a group port of this test's own) and a port scan of 127.0.0.0/24, a
 * door controller that answers WS-Discovery but is no camera, and a web server that is no camera either.
 */
import type { DiscoveredDevice } from '@homesitter/contract';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOnvifSimulator } from '../testing/onvif-simulator.js';
import {
  SIMULATED_MANUFACTURER,
  SIMULATED_MODEL,
  startSimulatedCameras,
  type SimulatedCameras,
} from '../testing/simulated-cameras.js';
import { discoverCameras, NOT_A_CAMERA_REASON, type DiscoverOptions } from './discover.js';

const LOGIN = { username: 'owner', password: 'se:cret/pw' };

let wsPort: number;
let network: SimulatedCameras;

beforeAll(async () => {
  wsPort = await freeUdpPort();
  network = await startSimulatedCameras({
    count: 3,
    firstAddress: '127.0.0.2',
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

/** Discovery of the simulated network: both methods, on loopback only. */
function onLoopback(overrides: DiscoverOptions = {}): DiscoverOptions {
  return {
    wsDiscovery: { port: wsPort, interfaces: ['127.0.0.1'] },
    portScan: { subnets: ['127.0.0.0/24'], rtspPorts: [network.rtspPort], httpPorts: [network.onvifPort] },
    ...overrides,
  };
}

/** Timers and sockets open in this process, by kind. */
function openHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (['Timeout', 'UDPWrap', 'TCPWrap', 'TCPSocketWrap'].includes(kind))
      counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Waits (at most a few seconds, as a safety) until no more handles are open than before. */
async function handlesBackTo(baseline: Record<string, number>): Promise<Record<string, number>> {
  const more = () => Object.entries(openHandles()).filter(([kind, n]) => n > (baseline[kind] ?? 0));
  for (let i = 0; i < 300 && more().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return Object.fromEntries(more());
}

describe('discoverCameras on a simulated home network', () => {
  it('finds exactly the cameras, flags the door controller, leaves out the web server, reporting each as it goes', async () => {
    const reported: DiscoveredDevice[] = [];
    let resolved = false;
    const discovery = discoverCameras(
      onLoopback({
        onDevice: (device) => {
          expect(resolved).toBe(false);
          reported.push(device);
        },
      }),
    );
    const result = await discovery;
    resolved = true;

    expect(result.timedOut).toBe(false);
    expect(result.subnets).toEqual(['127.0.0.0/24']);
    const door = network.unsupported[0]!;
    expect(result.devices.map((device) => device.address)).toEqual([
      ...network.cameras.map((camera) => camera.address),
      door.address,
    ]);
    expect(result.devices.map((device) => device.address)).not.toContain(network.webServers[0]!.address);

    network.cameras.forEach((camera, index) => {
      expect(result.devices[index]).toEqual({
        id: camera.address,
        address: camera.address,
        mac: null,
        manufacturer: SIMULATED_MANUFACTURER,
        model: SIMULATED_MODEL,
        name: camera.name,
        onvif: { port: camera.onvifPort, xaddr: camera.xaddr },
        rtsp: { port: camera.rtspPort, url: `rtsp://${camera.address}:${camera.rtspPort}` },
        needs_credentials: true,
        supported: true,
        unsupported_reason: null,
        unsupported_code: null,
        found_by: ['ws-discovery', 'port-scan'],
      } satisfies DiscoveredDevice);
    });
    expect(result.devices.at(-1)).toMatchObject({
      address: door.address,
      name: door.name,
      supported: false,
      unsupported_code: 'not_a_camera',
      unsupported_reason: NOT_A_CAMERA_REASON,
      found_by: ['ws-discovery'],
    });

    // Every device was reported before the end, its last report being what the result holds, and only
    // improvements were reported again.
    for (const device of result.devices) {
      const reports = reported.filter((r) => r.id === device.id);
      expect(reports.at(-1)).toEqual(device);
      expect(new Set(reports.map((r) => JSON.stringify(r))).size).toBe(reports.length);
    }
  });

  it('lists a camera the port scan alone finds, and one WS-Discovery alone finds', async () => {
    const camera = network.cameras[0]!;
    const scanned = await discoverCameras(onLoopback({ wsDiscovery: false }));
    expect(scanned.devices.map((device) => device.address)).toEqual(network.cameras.map((c) => c.address));
    expect(scanned.devices[0]).toMatchObject({
      address: camera.address,
      onvif: { port: camera.onvifPort, xaddr: camera.xaddr },
      rtsp: { port: camera.rtspPort },
      needs_credentials: true,
      supported: true,
      found_by: ['port-scan'],
    });

    const announced = await discoverCameras(onLoopback({ portScan: false }));
    expect(announced.subnets).toEqual([]);
    expect(announced.devices).toHaveLength(network.cameras.length + 1);
    // It still asks each camera's device service whether it wants a login.
    expect(announced.devices[0]).toMatchObject({
      address: camera.address,
      rtsp: null,
      needs_credentials: true,
      found_by: ['ws-discovery'],
    });
  });

  it('flags an ONVIF device the scan finds that has no video service', async () => {
    const controller = await startOnvifSimulator({
      ...LOGIN,
      host: '127.0.0.60',
      rtspBase: 'rtsp://127.0.0.60:554',
      manufacturer: 'Acme',
      model: 'Door 7',
      mediaService: false,
      openOperations: ['GetSystemDateAndTime', 'GetDeviceInformation', 'GetServices'],
    });
    try {
      const result = await discoverCameras({
        wsDiscovery: false,
        portScan: { subnets: ['127.0.0.60/32'], rtspPorts: [], httpPorts: [controller.port] },
      });
      expect(result.devices).toEqual([
        expect.objectContaining({
          address: '127.0.0.60',
          manufacturer: 'Acme',
          model: 'Door 7',
          supported: false,
          unsupported_code: 'no_video_service',
          found_by: ['port-scan'],
        }),
      ]);
    } finally {
      await controller.close();
    }
  });

  it('stops at once when aborted, leaving no socket or timer behind', async () => {
    const baseline = openHandles();
    const controller = new AbortController();
    let afterAbort = 0;
    const discovery = discoverCameras(
      onLoopback({
        signal: controller.signal,
        onDevice: () => {
          if (controller.signal.aborted) afterAbort += 1;
          else controller.abort();
        },
      }),
    );
    const result = await discovery;
    expect(controller.signal.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(afterAbort).toBe(0);
    expect(await handlesBackTo(baseline)).toEqual({});
  });

  it('returns what it found by timeoutMs when the work is not done, with timedOut', async () => {
    // A listener that accepts and never answers holds the scan; WS-Discovery listens 4.5 s on its own.
    const open = new Set<Socket>();
    const silent = createServer((socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // Reads (and ignores) what it is sent, so it sees the probe hang up.
      socket.resume();
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const baseline = openHandles();
    try {
      const started = Date.now();
      const reported = new Set<string>();
      const result = await discoverCameras({
        timeoutMs: 2_500,
        wsDiscovery: { port: wsPort, interfaces: ['127.0.0.1'] },
        portScan: {
          subnets: ['127.0.0.1/32'],
          rtspPorts: [(silent.address() as AddressInfo).port],
          httpPorts: [],
        },
        onDevice: (device) => reported.add(device.id),
      });
      expect(result.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(4_500);
      const cameras = network.cameras.map((camera) => camera.address);
      expect(result.devices.map((device) => device.address)).toEqual(expect.arrayContaining(cameras));
      expect([...reported]).toEqual(expect.arrayContaining(cameras));
      expect(await handlesBackTo(baseline)).toEqual({});
    } finally {
      open.forEach((socket) => socket.destroy());
      silent.close();
    }
  });

  it('keeps going when the onDevice listener throws', async () => {
    const result = await discoverCameras(
      onLoopback({
        wsDiscovery: false,
        onDevice: () => {
          throw new Error('listener bug');
        },
      }),
    );
    expect(result.devices).toHaveLength(network.cameras.length);
  });

  it('refuses a subnet or a port that is none', async () => {
    await expect(
      discoverCameras({ wsDiscovery: false, portScan: { subnets: ['192.168.1/24'] } }),
    ).rejects.toThrow(RangeError);
    await expect(
      discoverCameras({ wsDiscovery: false, portScan: { subnets: ['127.0.0.1/32'], rtspPorts: [70_000] } }),
    ).rejects.toThrow(RangeError);
  });
});
