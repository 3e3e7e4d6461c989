/**
 * npm run bench:discovery — the desktop helper's discovery flow against 10 simulated ONVIF cameras on
 * loopback (127.0.0.2…127.0.0.11; one RTSP server on all their addresses fed by one publisher copying a
 * looped H.264 still, so the machine's two cores go to discovery and configuration, not to encoding):
 *
 * 1. discoverCameras with WS-Discovery (multicast on `lo`, a group port of its own) and a port scan of
 *    127.0.0.0/24 on the simulator ports: the time until all 10 were reported (target ≤ 5 s), and until it
 *    ended (WS-Discovery listens 3 s after its last probe, sent 1.5 s in).
 * 2. configureCamera of all 10 at once over ONVIF with their login: each camera's time (target ≤ 10 s) and
 *    the total (target ≤ 30 s).
 *
 * 3. The phone app's flow (issue 33) on the Node transport, which mirrors the native plugin: discovery over
 *    the transport (WS-Discovery multicast as on Android, plus the port check of 127.0.0.0/24), the time
 *    until all 10 were reported; then all 10 configured as the phone does it: its camera test of each over
 *    the transport (ONVIF with the login, RTSP DESCRIBE, snapshot), then the server's configureCamera (stream
 *    pull). Target: within 2× the helper's figures.
 *
 * Three runs; prints each, the medians and the load average (the machine may be shared).
 */
import { createSocket } from 'node:dgram';
import { loadavg } from 'node:os';
import type { DiscoveredDevice } from '@homesitter/contract';
import {
  configureCamera,
  createNetworkPolicy,
  createNodeTransport,
  discoverCameras,
} from '@homesitter/cameras';
import { checkCameraOverTransport, discoverOverTransport } from '@homesitter/cameras/transport';
import { startSimulatedCameras } from '@homesitter/cameras/testing';

const CAMERAS = Number(process.env.BENCH_CAMERAS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LOGIN = { username: 'bench', password: 'bench-camera-pass' };
const TARGET_FIND_MS = 5_000;
const TARGET_CONFIGURE_ONE_MS = 10_000;
const TARGET_CONFIGURE_ALL_MS = 30_000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ms: number, target: number) => (ms <= target ? 'ok' : 'MISSED');

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

const wsDiscoveryPort = await freeUdpPort();
const network = await startSimulatedCameras({
  count: CAMERAS,
  wsDiscoveryPort,
  credentials: LOGIN,
  media: true,
});
const policy = createNetworkPolicy('127.0.0.0/8');
const addresses = new Set(network.cameras.map((camera) => camera.address));
console.log(
  `${CAMERAS} simulated cameras on ${network.cameras[0]!.address}…${network.cameras.at(-1)!.address}, ` +
    `ONVIF port ${network.onvifPort}, RTSP port ${network.rtspPort}`,
);

const found: number[] = [];
const ended: number[] = [];
const eachConfigured: number[] = [];
const allConfigured: number[] = [];
const phoneFound: number[] = [];
const phoneEnded: number[] = [];
const phoneConfigured: number[] = [];
let failures = 0;
const transport = createNodeTransport();

/** One run of the phone's flow on the Node transport; see the module comment. */
async function phoneRun(run: number): Promise<void> {
  const started = Date.now();
  const firstSeen = new Set<string>();
  let allFoundAt: number | null = null;
  const result = await discoverOverTransport({
    transport,
    subnets: ['127.0.0.0/24'],
    wsDiscovery: { mode: 'multicast', port: wsDiscoveryPort, localAddress: '127.0.0.1' },
    rtspPorts: [network.rtspPort],
    httpPorts: [network.onvifPort],
    onDevice: (device: DiscoveredDevice) => {
      if (!addresses.has(device.address) || !device.supported || firstSeen.has(device.address)) return;
      firstSeen.add(device.address);
      if (firstSeen.size === addresses.size) allFoundAt = Date.now() - started;
    },
  });
  const endedAfter = Date.now() - started;
  if (allFoundAt === null || result.devices.filter((device) => device.supported).length !== CAMERAS) {
    failures += 1;
    console.log(`phone run ${run}: discovery found ${result.devices.length} devices`);
  }
  phoneFound.push(allFoundAt ?? endedAfter);
  phoneEnded.push(endedAfter);
  const configuring = Date.now();
  await Promise.all(
    network.cameras.map(async (camera) => {
      const connection = { type: 'onvif' as const, host: camera.address, port: camera.onvifPort, ...LOGIN };
      const tested = await checkCameraOverTransport({ transport, connection });
      if (tested.verdict !== 'works') {
        failures += 1;
        console.log(`phone run ${run}: ${camera.address} test says ${tested.message}`);
        return;
      }
      await configureCamera(connection, { policy }).catch((err: unknown) => {
        failures += 1;
        console.log(`phone run ${run}: ${camera.address} failed: ${String(err)}`);
      });
    }),
  );
  phoneConfigured.push(Date.now() - configuring);
  console.log(
    `phone run ${run}: all ${CAMERAS} found ${s(phoneFound.at(-1)!)} (discovery ended ${s(endedAfter)})   ` +
      `tested and configured all ${s(phoneConfigured.at(-1)!)}`,
  );
}

try {
  for (let run = 1; run <= RUNS; run++) {
    const started = Date.now();
    const firstSeen = new Map<string, number>();
    let allFoundAt: number | null = null;
    const result = await discoverCameras({
      wsDiscovery: { port: wsDiscoveryPort, interfaces: ['127.0.0.1'] },
      portScan: { subnets: ['127.0.0.0/24'], rtspPorts: [network.rtspPort], httpPorts: [network.onvifPort] },
      onDevice: (device: DiscoveredDevice) => {
        if (!addresses.has(device.address) || firstSeen.has(device.address)) return;
        firstSeen.set(device.address, Date.now() - started);
        if (firstSeen.size === addresses.size) allFoundAt = Date.now() - started;
      },
    });
    const endedAfter = Date.now() - started;
    const cameras = result.devices.filter((device) => device.supported && addresses.has(device.address));
    if (cameras.length !== CAMERAS || result.devices.length !== CAMERAS || allFoundAt === null) {
      failures += 1;
      console.log(
        `run ${run}: discovery found ${result.devices.length} devices, ${cameras.length} of the cameras`,
      );
    }
    found.push(allFoundAt ?? endedAfter);
    ended.push(endedAfter);

    const configuring = Date.now();
    const times = await Promise.all(
      network.cameras.map(async (camera) => {
        const begun = Date.now();
        try {
          await configureCamera(
            { type: 'onvif', host: camera.address, port: camera.onvifPort, ...LOGIN },
            { policy },
          );
          return Date.now() - begun;
        } catch (err) {
          failures += 1;
          console.log(
            `run ${run}: ${camera.address} failed: ${err instanceof Error ? err.message : String(err)}`,
          );
          return Date.now() - begun;
        }
      }),
    );
    const total = Date.now() - configuring;
    eachConfigured.push(...times);
    allConfigured.push(total);
    console.log(
      [
        `run ${run}: all ${CAMERAS} found ${s(found.at(-1)!)} (discovery ended ${s(endedAfter)})`,
        `configured each ${times.map((t) => (t / 1000).toFixed(1)).join(' ')} s`,
        `all ${s(total)}`,
      ].join('   '),
    );
    await phoneRun(run);
  }
} finally {
  await network.stop();
}

console.log(
  [
    `median: all ${CAMERAS} found ${s(median(found))} (target ≤ ${s(TARGET_FIND_MS)}: ${verdict(median(found), TARGET_FIND_MS)})`,
    `discovery ended ${s(median(ended))}`,
  ].join('   '),
);
console.log(
  [
    `configuring ${CAMERAS} at once: each median ${s(median(eachConfigured))}, slowest ${s(Math.max(...eachConfigured))}`,
    `(target ≤ ${s(TARGET_CONFIGURE_ONE_MS)}: ${verdict(Math.max(...eachConfigured), TARGET_CONFIGURE_ONE_MS)})`,
    `all median ${s(median(allConfigured))} (target ≤ ${s(TARGET_CONFIGURE_ALL_MS)}: ${verdict(median(allConfigured), TARGET_CONFIGURE_ALL_MS)})`,
  ].join('   '),
);
const within = (phone: number, helper: number) => (phone <= 2 * helper ? 'ok' : 'MISSED');
console.log(
  [
    `phone: all ${CAMERAS} found median ${s(median(phoneFound))} (≤ 2× the helper's: ${within(median(phoneFound), median(found))})`,
    `discovery ended ${s(median(phoneEnded))}`,
    `all tested and configured median ${s(median(phoneConfigured))} (≤ 2× the helper's: ${within(median(phoneConfigured), median(allConfigured))})`,
  ].join('   '),
);
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
if (failures > 0) {
  console.log(`${failures} failures`);
  process.exitCode = 1;
}
