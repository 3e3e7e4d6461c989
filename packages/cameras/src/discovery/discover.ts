/**
 * Camera discovery on the local network, for the desktop helper's `GET /discover`: WS-Discovery and a TCP
 * probe of the local subnets run side by side; whatever either learns about an address is merged into one
 * `DiscoveredDevice` (id = the address) and handed to `onDevice` each time it improves.
 *
 * It ends as soon as the work is done (every port probed, WS-Discovery listened long enough after its last
 * probe), at `timeoutMs` at the latest (`timedOut: true`, with everything found so far), or at once when the
 * caller's signal aborts. Either way every socket is closed and no timer is left. Network failures are
 * logged at debug level and never thrown.
 */
import { HELPER_DISCOVERY_TIMEOUT_MS, type DiscoveredDevice } from '@homesitter/contract';
import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type { CameraLogger } from '../types.js';
import { readArpTable } from './arp.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_HTTP_PORTS,
  DEFAULT_RTSP_PORTS,
  DEFAULT_SCAN_CONCURRENCY,
  identifyOnvif,
  ONVIF_DEVICE_PATH,
  scanPorts,
  type OnvifFinding,
  type PortFinding,
  type ProbeContext,
} from './port-probe.js';
import {
  interfaceAddresses,
  isLoopback,
  localIpv4Addresses,
  localSubnets,
  MAX_SCAN_HOSTS,
  parseSubnet,
  subnetHosts,
} from './subnets.js';
import { runWsDiscovery, type WsDiscoveryAnswer } from './ws-discovery.js';
import { createDeviceBook } from './device-book.js';

export { NOT_A_CAMERA_REASON, NO_VIDEO_SERVICE_REASON } from './device-book.js';

export interface DiscoverOptions {
  /** Hard cap; default HELPER_DISCOVERY_TIMEOUT_MS (60 s, docs/product.md §9). */
  timeoutMs?: number;
  /** Aborting ends the discovery at once; the promise then resolves with what was found (`timedOut: false`). */
  signal?: AbortSignal;
  /**
   * WS-Discovery over UDP multicast; default group 239.255.255.250 port 3702, sent from every non-internal
   * IPv4 interface. `interfaces` takes interface names or their IPv4 addresses. `false` turns it off.
   */
  wsDiscovery?: { address?: string; port?: number; interfaces?: string[] } | false;
  /**
   * TCP probe of the local subnets; default: each non-internal IPv4 interface's subnet (anything wider than
   * /24 is cut to the /24 around the host's address; at most 4 subnets), RTSP ports [554, 8554], HTTP ports
   * [80, 8080, 8000, 8899]. At most 1016 hosts (four /24s) are probed, whatever the subnets. `false` turns
   * it off.
   */
  portScan?:
    | {
        subnets?: string[];
        rtspPorts?: number[];
        httpPorts?: number[];
        concurrency?: number;
        connectTimeoutMs?: number;
      }
    | false;
  /** Called for every device found, and again (same id) whenever more is learnt about it. */
  onDevice?: (device: DiscoveredDevice) => void;
  log?: CameraLogger;
}

export interface DiscoveryResult {
  /** Every device found, ordered by address. */
  devices: DiscoveredDevice[];
  /** The subnets the port scan covered (none when it was off). */
  subnets: string[];
  timedOut: boolean;
}

/** MACs are looked up this long after a new device (more may arrive meanwhile: one read for all). */
const MAC_LOOKUP_DELAY_MS = 300;

/** Finds cameras on the local network; see the module comment. Rejects only on invalid options. */
export async function discoverCameras(options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const timeoutMs = options.timeoutMs ?? HELPER_DISCOVERY_TIMEOUT_MS;
  const { log } = options;
  const ws = options.wsDiscovery === false ? null : (options.wsDiscovery ?? {});
  const scan = options.portScan === false ? null : (options.portScan ?? {});
  const subnets = scan ? (scan.subnets ?? localSubnets()).map(checkedSubnet) : [];
  const rtspPorts = scan ? (scan.rtspPorts ?? DEFAULT_RTSP_PORTS).map(checkedPort) : [];
  const httpPorts = scan ? (scan.httpPorts ?? DEFAULT_HTTP_PORTS).map(checkedPort) : [];
  const hosts = [...new Set(subnets.flatMap((subnet) => subnetHosts(subnet)))].slice(0, MAX_SCAN_HOSTS);
  const subnetSizes = subnets.reduce((sum, subnet) => sum + 2 ** (32 - subnet.prefix), 0);
  if (subnetSizes > MAX_SCAN_HOSTS + 2 * subnets.length) {
    log?.warn(
      { subnets: subnets.map((subnet) => subnet.cidr), probed: hosts.length },
      'discovery: the subnets hold more hosts than one scan probes; the rest are left out',
    );
  }

  const concurrency = Math.max(1, Math.floor(scan?.concurrency ?? DEFAULT_SCAN_CONCURRENCY));
  const controller = new AbortController();
  const signal = controller.signal;
  // Every probe in flight listens for the abort (a few listeners each): not a leak.
  setMaxListeners(4 * concurrency + 32, signal);
  const context: ProbeContext = {
    connectTimeoutMs: scan?.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    signal,
    log,
  };
  const book = createDeviceBook({
    rtspPorts,
    emit: (device) => {
      try {
        options.onDevice?.(device);
      } catch (err) {
        log?.warn({ err: describe(err) }, 'discovery: the onDevice listener failed');
      }
    },
  });

  // One ONVIF identification per address and port, whether the scan or a WS-Discovery answer asks first.
  const onvifChecks = new Map<string, Promise<OnvifFinding | null>>();
  const checkOnvif = (host: string, port: number, path: string, socket?: Socket) => {
    const key = `${host}:${port}`;
    let check = onvifChecks.get(key);
    if (!check) {
      check = identifyOnvif({ host, port, path, socket }, context);
      onvifChecks.set(key, check);
    } else {
      socket?.destroy();
    }
    return check;
  };

  const followUps = new Set<Promise<void>>();
  /** Asks the device service a camera announced for what it says without a login (make, model, login). */
  const followUp = (answer: WsDiscoveryAnswer, source: string) => {
    // Only the device itself is asked, at the address it answered from: an answer cannot send us elsewhere.
    if (!answer.xaddr || !answer.port || answer.address !== source || !/^http:/i.test(answer.xaddr)) return;
    const path = new URL(answer.xaddr).pathname || ONVIF_DEVICE_PATH;
    const work = checkOnvif(answer.address, answer.port, path).then((finding) => {
      if (finding && !signal.aborted) book.onvif(finding, 'ws-discovery');
    });
    followUps.add(work);
    void work.finally(() => followUps.delete(work));
  };

  let macTimer: NodeJS.Timeout | null = null;
  const refreshMacs = async () => {
    const missing = book.withoutMac().filter((address) => !isLoopback(address));
    if (missing.length === 0) return;
    const table = await readArpTable();
    if (signal.aborted) return;
    for (const address of missing) {
      const mac = table.get(address);
      if (mac) book.mac(address, mac);
    }
  };
  book.onNewAddress((address) => {
    if (isLoopback(address) || macTimer || signal.aborted) return;
    macTimer = setTimeout(() => {
      macTimer = null;
      void refreshMacs();
    }, MAC_LOOKUP_DELAY_MS);
  });

  const work = async () => {
    const parts: Promise<void>[] = [];
    if (ws) {
      const interfaces = ws.interfaces
        ? interfaceAddresses(ws.interfaces)
        : localIpv4Addresses().map((info) => info.address);
      book.holdNonCameras(true);
      parts.push(
        runWsDiscovery({
          interfaces,
          ...(ws.address ? { group: ws.address } : {}),
          ...(ws.port ? { port: ws.port } : {}),
          signal,
          log,
          onAnswer: (answer, source) => {
            book.ws(answer);
            followUp(answer, source);
          },
        }).then(() => book.holdNonCameras(false)),
      );
    }
    if (scan && hosts.length > 0 && rtspPorts.length + httpPorts.length > 0) {
      parts.push(
        scanPorts({
          ...context,
          hosts,
          rtspPorts,
          httpPorts,
          concurrency,
          identifyOnvif: (host, port, socket) => checkOnvif(host, port, ONVIF_DEVICE_PATH, socket),
          onFinding: (finding: PortFinding) =>
            finding.kind === 'rtsp' ? book.rtsp(finding) : book.onvif(finding, 'port-scan'),
        }),
      );
    }
    await Promise.all(parts);
    while (followUps.size > 0 && !signal.aborted) await Promise.all(followUps);
    if (!signal.aborted) await refreshMacs();
  };

  const started = Date.now();
  return new Promise<DiscoveryResult>((resolve) => {
    let finished = false;
    const finish = (timedOut: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      if (macTimer) clearTimeout(macTimer);
      options.signal?.removeEventListener('abort', onAbort);
      // A caller that gave up hears nothing more; otherwise devices held back are reported now. Nothing is
      // reported once the promise resolves.
      if (!options.signal?.aborted) book.holdNonCameras(false);
      book.close();
      controller.abort();
      const devices = book.list();
      log?.debug({ devices: devices.length, timedOut, ms: Date.now() - started }, 'discovery: done');
      resolve({ devices, subnets: subnets.map((subnet) => subnet.cidr), timedOut });
    };
    const onAbort = () => finish(false);
    const deadline = setTimeout(() => finish(true), timeoutMs);
    if (options.signal?.aborted) return finish(false);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    work().then(
      () => finish(false),
      (err: unknown) => {
        log?.warn({ err: describe(err) }, 'discovery: failed');
        finish(false);
      },
    );
  });
}

function checkedSubnet(text: string) {
  const subnet = parseSubnet(text);
  if (!subnet) throw new RangeError(`discovery: "${text}" is not an IPv4 subnet (e.g. 192.168.1.0/24)`);
  return subnet;
}

function checkedPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`discovery: ${port} is not a TCP port`);
  }
  return port;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
