/**
 * Discovery on the phone itself (issue 33): inside the iOS and Android apps the scan and the camera test run
 * in the app over the `LanDiscovery` plugin, by the helper's own rules (`@homesitter/cameras/transport`),
 * and answer exactly what the helper's `GET /discover` and `POST /cameras/test` answer, so the flow's steps
 * are the same. Android probes WS-Discovery by multicast (under a Wi-Fi multicast lock), iOS by unicast to
 * every address of the Wi-Fi's subnet (multicast needs an entitlement there).
 */
import {
  checkCameraOverTransport,
  discoverOverTransport,
  type TransportDiscoverOptions,
} from '@homesitter/cameras/transport';
import {
  HELPER_DISCOVERY_TIMEOUT_MS,
  type DiscoveryEvent,
  type HelperCameraTestResult,
  type StreamConnectionInput,
} from '@homesitter/contract';
import { isNativeApp } from '../../shared/lib/native';
import { wifiSubnet, type LanDiscoveryPlugin } from '../../shared/native/lanDiscovery';

/** The phone is not on a Wi-Fi (mobile data only): there is no home network to scan. */
export class NoWifiError extends Error {
  constructor() {
    super('The phone is not connected to a Wi-Fi network');
  }
}

/** A browser test's transport may also say where its simulated cameras listen (ports, WS-Discovery group port). */
type TestPlugin = LanDiscoveryPlugin & { testScan?: Partial<TransportDiscoverOptions> };

function injected(): TestPlugin | undefined {
  return (window as { __homesitterLanDiscovery?: TestPlugin }).__homesitterLanDiscovery;
}

/** Whether this app finds cameras itself (the native apps) rather than through the desktop helper. */
export function findsCamerasItself(): boolean {
  return isNativeApp() || injected() !== undefined;
}

/** The injected plugin of a browser test, else the app's (`load`). */
export function pluginLoader(load: () => Promise<LanDiscoveryPlugin>): () => Promise<TestPlugin> {
  return async () => injected() ?? (await load());
}

export function createPhoneDiscovery(
  load: () => Promise<TestPlugin>,
  platform: () => 'ios' | 'android' | null,
) {
  return {
    /** The helper's `GET /discover` events, from a scan of the phone's Wi-Fi subnet. */
    async discover(onEvent: (event: DiscoveryEvent) => void, signal?: AbortSignal): Promise<void> {
      const plugin = await load();
      const subnet = wifiSubnet(await plugin.wifiInfo());
      if (!subnet) throw new NoWifiError();
      if (signal?.aborted) return;
      onEvent({ type: 'started', subnets: [subnet], timeout_ms: HELPER_DISCOVERY_TIMEOUT_MS });
      const result = await discoverOverTransport({
        transport: plugin,
        subnets: [subnet],
        wsDiscovery: { mode: platform() === 'ios' ? 'unicast' : 'multicast' },
        ...(signal ? { signal } : {}),
        onDevice: (device) => onEvent({ type: 'device', device }),
        ...plugin.testScan,
      });
      if (!signal?.aborted)
        onEvent({ type: 'done', devices: result.devices.length, timed_out: result.timedOut });
    },

    /** The helper's camera test (same verdicts and texts), nothing sent to the server. */
    async testCamera(connection: StreamConnectionInput): Promise<HelperCameraTestResult> {
      return checkCameraOverTransport({ transport: await load(), connection });
    },
  };
}
