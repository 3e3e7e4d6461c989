// @vitest-environment node
/**
 * The phone's discovery client on the Node transport (the plugin's twin, packages/cameras) against simulated
 * cameras on 127.0.3.0/28: the same events the helper's `GET /discover` streams and the same camera test
 * verdicts, for an Android phone (multicast) and an iPhone (unicast from another loopback source).
 */
import { createNodeTransport } from '@homesitter/cameras';
import { startSimulatedCameras, type SimulatedCameras } from '@homesitter/cameras/testing';
import type { DiscoveryEvent } from '@homesitter/contract';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneDiscovery, NoWifiError } from './phoneDiscovery';

const LOGIN = { username: 'owner', password: 'camera-pass' };
let network: SimulatedCameras;
let wsPort: number;

beforeAll(async () => {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  wsPort = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  network = await startSimulatedCameras({
    count: 2,
    firstAddress: '127.0.3.2',
    wsDiscoveryPort: wsPort,
    credentials: LOGIN,
  });
});

afterAll(async () => {
  await network?.stop();
});

function phone(platform: 'ios' | 'android', wifi = { connected: true, address: '127.0.3.1', prefix: 28 }) {
  const plugin = {
    ...createNodeTransport(),
    wifiInfo: async () => wifi,
    testScan: {
      rtspPorts: [network.rtspPort],
      httpPorts: [network.onvifPort],
      wsDiscovery: {
        mode: platform === 'ios' ? ('unicast' as const) : ('multicast' as const),
        port: wsPort,
        localAddress: platform === 'ios' ? '127.0.3.1' : '127.0.0.1',
      },
    },
  };
  return createPhoneDiscovery(
    async () => plugin,
    () => platform,
  );
}

describe('the phone finds cameras itself', () => {
  for (const platform of ['android', 'ios'] as const) {
    it(`streams the helper's discovery events for the Wi-Fi's subnet (${platform})`, async () => {
      const events: DiscoveryEvent[] = [];
      await phone(platform).discover((event) => events.push(event));
      expect(events[0]).toEqual({ type: 'started', subnets: ['127.0.3.0/28'], timeout_ms: 60_000 });
      expect(events.at(-1)).toEqual({ type: 'done', devices: 2, timed_out: false });
      const found = new Set(
        events.flatMap((event) =>
          event.type === 'device' && event.device.supported ? [event.device.address] : [],
        ),
      );
      expect([...found].sort()).toEqual(network.cameras.map((camera) => camera.address));
    });
  }

  it('says so when the phone is not on a Wi-Fi, before scanning anything', async () => {
    const events: DiscoveryEvent[] = [];
    await expect(
      phone('android', { connected: false } as never).discover((e) => events.push(e)),
    ).rejects.toBeInstanceOf(NoWifiError);
    expect(events).toEqual([]);
  });

  it("tests a camera with the helper's verdicts", async () => {
    const camera = network.cameras[0]!;
    const connection = { type: 'onvif' as const, host: camera.address, port: camera.onvifPort };
    const wrong = await phone('android').testCamera({ ...connection, username: 'owner', password: 'nope' });
    expect(wrong).toMatchObject({ verdict: 'failed', error_code: 'wrong_credentials' });
  });
});
