/**
 * Camera discovery over a `CameraTransport`: what the desktop helper's `discoverCameras` does, by the same
 * rules (the probes, the answers' reading, the ONVIF identification, the RTSP verdict and the device book are
 * the helper's own, from ../discovery), for the phone app, which has no Node sockets but a native plugin.
 *
 * WS-Discovery (multicast on Android, unicast to every address of the subnet on iOS) and a bounded port
 * check of the subnet run side by side; an open port is then identified over the transport's HTTP or RTSP
 * call. Devices are reported through `onDevice` each time they improve. It ends when the work is done, at
 * `timeoutMs` (docs/product.md §9: 60 s) with what was found and `timedOut`, or when `signal` aborts.
 */
import { HELPER_DISCOVERY_TIMEOUT_MS, type DiscoveredDevice } from '@homesitter/contract';
import { createDeviceBook } from '../discovery/device-book.js';
import { MAX_SCAN_HOSTS, parseSubnet, subnetHosts } from '../discovery/ipv4.js';
import {
  identifyOnvifBy,
  rtspFinding,
  type OnvifFinding,
  type SoapAnswer,
} from '../discovery/onvif-identify.js';
import {
  buildProbe,
  describeMatch,
  LISTEN_AFTER_LAST_PROBE_MS,
  MAX_MESSAGE_BYTES,
  parseProbeMatches,
  PROBE_INTERVAL_MS,
  PROBE_REPEATS,
  sameMessageId,
  WS_DISCOVERY_GROUP,
  WS_DISCOVERY_PORT,
  type WsDiscoveryAnswer,
} from '../discovery/ws-discovery-messages.js';
import { isAnswer, type CameraTransport } from './transport.js';

/** The ports the phone checks on every address (issue 33): RTSP, then the usual ONVIF/web ports. */
export const PHONE_RTSP_PORTS = [554];
export const PHONE_HTTP_PORTS = [80, 8000, 8080, 8899];
/** Connects per native call; the plugin runs one batch side by side, so this bounds the phone's sockets. */
export const PHONE_SCAN_BATCH = 64;
export const PHONE_CONNECT_TIMEOUT_MS = 800;
const ONVIF_DEVICE_PATH = '/onvif/device_service';
const SOAP_TIMEOUT_MS = 3_000;
const RTSP_TIMEOUT_MS = 2_000;
const MAX_SOAP_BYTES = 64 * 1024;

export interface TransportDiscoverOptions {
  transport: CameraTransport;
  /** The phone's Wi-Fi subnet(s), e.g. `192.168.1.0/24`; at most MAX_SCAN_HOSTS addresses are checked. */
  subnets: string[];
  /**
   * `multicast`: one probe to the group (Android, under its multicast lock). `unicast`: the probe to every
   * address of the subnets (iOS). `false` turns WS-Discovery off.
   */
  wsDiscovery?:
    { mode: 'multicast' | 'unicast'; group?: string; port?: number; localAddress?: string } | false;
  rtspPorts?: number[];
  httpPorts?: number[];
  batch?: number;
  connectTimeoutMs?: number;
  /** Default HELPER_DISCOVERY_TIMEOUT_MS (60 s, docs/product.md §9). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onDevice?: (device: DiscoveredDevice) => void;
}

export interface TransportDiscoveryResult {
  devices: DiscoveredDevice[];
  subnets: string[];
  timedOut: boolean;
}

/** Finds cameras over the transport; see the module comment. Rejects only on an invalid subnet. */
export async function discoverOverTransport(
  options: TransportDiscoverOptions,
): Promise<TransportDiscoveryResult> {
  const { transport } = options;
  const subnets = options.subnets.map((text) => {
    const subnet = parseSubnet(text);
    if (!subnet) throw new RangeError(`discovery: "${text}" is not an IPv4 subnet (e.g. 192.168.1.0/24)`);
    return subnet;
  });
  const hosts = [...new Set(subnets.flatMap((subnet) => subnetHosts(subnet)))].slice(0, MAX_SCAN_HOSTS);
  const rtspPorts = options.rtspPorts ?? PHONE_RTSP_PORTS;
  const httpPorts = options.httpPorts ?? PHONE_HTTP_PORTS;
  const ws = options.wsDiscovery === false ? null : (options.wsDiscovery ?? { mode: 'multicast' as const });
  let stopped = false;
  const book = createDeviceBook({
    rtspPorts,
    emit: (device) => {
      if (!stopped) options.onDevice?.(device);
    },
  });

  const onvifChecks = new Map<string, Promise<OnvifFinding | null>>();
  const checkOnvif = (host: string, port: number, path: string) => {
    const key = `${host}:${port}`;
    let check = onvifChecks.get(key);
    if (!check) {
      check = identifyOnvifBy({ host, port, path }, (body) => soap(transport, host, port, path, body));
      onvifChecks.set(key, check);
    }
    return check;
  };

  const wsDiscovery = async () => {
    if (!ws) return;
    const group = ws.group ?? WS_DISCOVERY_GROUP;
    const port = ws.port ?? WS_DISCOVERY_PORT;
    const probes = (['camera', 'device'] as const).map((target) => {
      const id = `urn:uuid:${crypto.randomUUID()}`;
      return { id, message: buildProbe(id, target) };
    });
    book.holdNonCameras(true);
    const { answers } = await transport.udpProbe({
      targets:
        ws.mode === 'multicast' ? [{ address: group, port }] : hosts.map((address) => ({ address, port })),
      multicast: ws.mode === 'multicast',
      messages: probes.map((probe) => probe.message),
      repeats: PROBE_REPEATS,
      intervalMs: PROBE_INTERVAL_MS,
      listenMs: LISTEN_AFTER_LAST_PROBE_MS,
      maxBytes: MAX_MESSAGE_BYTES,
      ...(ws.localAddress ? { localAddress: ws.localAddress } : {}),
    });
    const followUps: Promise<void>[] = [];
    for (const received of answers) {
      const parsed = parseProbeMatches(received.text);
      const relatesTo = parsed?.relatesTo;
      if (!parsed || !relatesTo || !probes.some((probe) => sameMessageId(probe.id, relatesTo))) continue;
      for (const match of parsed.matches) {
        const answer = describeMatch(match, received.address);
        if (!answer) continue;
        book.ws(answer);
        followUps.push(followUp(answer, received.address));
      }
    }
    await Promise.all(followUps);
    book.holdNonCameras(false);
  };

  /** Asks the device service an answer named, at the address it answered from only (as the helper does). */
  const followUp = async (answer: WsDiscoveryAnswer, source: string) => {
    if (!answer.xaddr || !answer.port || answer.address !== source || !/^http:/i.test(answer.xaddr)) return;
    const path = new URL(answer.xaddr).pathname || ONVIF_DEVICE_PATH;
    const finding = await checkOnvif(answer.address, answer.port, path);
    if (finding) book.onvif(finding, 'ws-discovery');
  };

  const portCheck = async () => {
    const targets = hosts.flatMap((host) => [
      ...rtspPorts.map((port) => ({ host, port })),
      ...httpPorts.map((port) => ({ host, port })),
    ]);
    const batch = Math.max(1, options.batch ?? PHONE_SCAN_BATCH);
    const identifications: Promise<void>[] = [];
    for (let start = 0; start < targets.length && !stopped; start += batch) {
      const { open } = await transport.tcpCheck({
        targets: targets.slice(start, start + batch),
        timeoutMs: options.connectTimeoutMs ?? PHONE_CONNECT_TIMEOUT_MS,
      });
      for (const target of open) {
        identifications.push(
          rtspPorts.includes(target.port)
            ? identifyRtsp(transport, target.host, target.port).then((finding) => {
                if (finding) book.rtsp(finding);
              })
            : checkOnvif(target.host, target.port, ONVIF_DEVICE_PATH).then((finding) => {
                if (finding) book.onvif(finding, 'port-scan');
              }),
        );
      }
    }
    await Promise.all(identifications);
  };

  return new Promise<TransportDiscoveryResult>((resolve) => {
    const finish = (timedOut: boolean) => {
      if (stopped) return;
      // A caller that gave up hears nothing more; otherwise devices held back are reported now.
      if (!options.signal?.aborted) book.holdNonCameras(false);
      stopped = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      book.close();
      resolve({ devices: book.list(), subnets: subnets.map((subnet) => subnet.cidr), timedOut });
    };
    const onAbort = () => finish(false);
    const deadline = setTimeout(() => finish(true), options.timeoutMs ?? HELPER_DISCOVERY_TIMEOUT_MS);
    if (options.signal?.aborted) return finish(false);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // A transport never rejects for the network; anything else ends the scan with what it found.
    Promise.all([wsDiscovery(), portCheck()]).then(
      () => finish(false),
      () => finish(false),
    );
  });
}

/** OPTIONS, then DESCRIBE of the root unless OPTIONS asked for a login: the helper's RTSP verdict. */
async function identifyRtsp(transport: CameraTransport, host: string, port: number) {
  const url = `rtsp://${host}:${port}/`;
  const options = await transport.rtsp({ url, method: 'OPTIONS', timeoutMs: RTSP_TIMEOUT_MS });
  const optionsStatus = isAnswer(options) ? options.status : null;
  const described =
    optionsStatus === null || optionsStatus === 401
      ? null
      : await transport.rtsp({ url, method: 'DESCRIBE', timeoutMs: RTSP_TIMEOUT_MS });
  return rtspFinding(host, port, optionsStatus, described && isAnswer(described) ? described.status : null);
}

async function soap(
  transport: CameraTransport,
  host: string,
  port: number,
  path: string,
  body: string,
): Promise<SoapAnswer | null> {
  const answer = await transport.http({
    url: `http://${host}:${port}${path}`,
    method: 'POST',
    headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
    body,
    timeoutMs: SOAP_TIMEOUT_MS,
    maxBytes: MAX_SOAP_BYTES,
    responseType: 'text',
  });
  return isAnswer(answer) ? { status: answer.status, xml: answer.body } : null;
}
