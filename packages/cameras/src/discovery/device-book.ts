/** What discovery knows about each address, merged from every source, and when to report it. */
import type { DiscoveredDevice } from '@homesitter/contract';
import type { OnvifFinding, RtspFinding } from './onvif-identify.js';
import { parseIpv4 } from './ipv4.js';
import type { WsDiscoveryAnswer } from './ws-discovery-messages.js';

export const NOT_A_CAMERA_REASON =
  'This device answers ONVIF discovery but is not a camera (it may be a recorder or an access controller)';
export const NO_VIDEO_SERVICE_REASON =
  'This device answers ONVIF but offers no video service, so there is nothing to record';

type Source = DiscoveredDevice['found_by'][number];

interface Knowledge {
  address: string;
  mac: string | null;
  foundBy: Set<Source>;
  ws: Omit<WsDiscoveryAnswer, 'address' | 'types'> | null;
  onvif: Omit<OnvifFinding, 'kind' | 'address'> | null;
  rtsp: Omit<RtspFinding, 'kind' | 'address'> | null;
  /** The device as last reported (JSON), to report only improvements. */
  reported: string | null;
}

interface DeviceBookOptions {
  /** The scan's RTSP ports in order of preference: a device answering on two is listed with the first. */
  rtspPorts: number[];
  emit(device: DiscoveredDevice): void;
}

/**
 * Merges findings per address and reports a device whenever its merged form changes. While non-cameras are
 * held (WS-Discovery still running), a device known only from answers without `NetworkVideoTransmitter` is
 * not reported yet: some cameras answer the generic probe first with its type alone.
 */
export function createDeviceBook(options: DeviceBookOptions) {
  const known = new Map<string, Knowledge>();
  const newAddressListeners: Array<(address: string) => void> = [];
  let holding = false;
  let closed = false;

  const entry = (address: string, source: Source): Knowledge => {
    let knowledge = known.get(address);
    if (!knowledge) {
      knowledge = {
        address,
        mac: null,
        foundBy: new Set(),
        ws: null,
        onvif: null,
        rtsp: null,
        reported: null,
      };
      known.set(address, knowledge);
      for (const listener of newAddressListeners) listener(address);
    }
    knowledge.foundBy.add(source);
    return knowledge;
  };

  const report = (knowledge: Knowledge) => {
    if (closed) return;
    if (holding && knowledge.ws !== null && !knowledge.ws.camera) return;
    const device = toDevice(knowledge);
    const json = JSON.stringify(device);
    if (json === knowledge.reported) return;
    knowledge.reported = json;
    options.emit(device);
  };

  return {
    ws(answer: WsDiscoveryAnswer) {
      const knowledge = entry(answer.address, 'ws-discovery');
      const before = knowledge.ws;
      knowledge.ws = {
        xaddr: before?.xaddr ?? answer.xaddr,
        port: before?.xaddr ? before.port : answer.port,
        camera: (before?.camera ?? false) || answer.camera,
        name: before?.name ?? answer.name,
        hardware: before?.hardware ?? answer.hardware,
        manufacturer: before?.manufacturer ?? answer.manufacturer,
      };
      report(knowledge);
    },
    onvif(finding: OnvifFinding, source: Source) {
      const knowledge = entry(finding.address, source);
      const before = knowledge.onvif;
      knowledge.onvif = {
        port: before?.port ?? finding.port,
        xaddr: before?.xaddr ?? finding.xaddr,
        manufacturer: before?.manufacturer ?? finding.manufacturer,
        model: before?.model ?? finding.model,
        needsCredentials: mergeNeeds(before?.needsCredentials ?? null, finding.needsCredentials),
        media: before?.media === true || finding.media === true ? true : (before?.media ?? finding.media),
      };
      report(knowledge);
    },
    rtsp(finding: RtspFinding) {
      const knowledge = entry(finding.address, 'port-scan');
      const before = knowledge.rtsp;
      const rank = (port: number) => options.rtspPorts.indexOf(port);
      const preferred = !before || rank(finding.port) < rank(before.port) ? finding : before;
      knowledge.rtsp = {
        port: preferred.port,
        url: preferred.url,
        needsCredentials: mergeNeeds(before?.needsCredentials ?? null, finding.needsCredentials),
      };
      report(knowledge);
    },
    mac(address: string, mac: string) {
      const knowledge = known.get(address);
      if (!knowledge || knowledge.mac) return;
      knowledge.mac = mac;
      report(knowledge);
    },
    withoutMac: () => [...known.values()].filter((k) => !k.mac).map((k) => k.address),
    onNewAddress(listener: (address: string) => void) {
      newAddressListeners.push(listener);
    },
    holdNonCameras(hold: boolean) {
      holding = hold;
      if (!hold) known.forEach(report);
    },
    /** Reports nothing more. */
    close() {
      closed = true;
    },
    list: () =>
      [...known.values()]
        .sort((a, b) => (parseIpv4(a.address) ?? 0) - (parseIpv4(b.address) ?? 0))
        .map(toDevice),
  };
}

/** A login is needed when anything said so; not needed when something answered without one. */
function mergeNeeds(a: boolean | null, b: boolean | null): boolean | null {
  if (a === true || b === true) return true;
  if (a === false || b === false) return false;
  return null;
}

function toDevice(knowledge: Knowledge): DiscoveredDevice {
  const { ws, onvif, rtsp } = knowledge;
  const notACamera = ws !== null && !ws.camera;
  const noVideo = !notACamera && ws === null && onvif?.media === false && rtsp === null;
  const unsupported_code = notACamera ? 'not_a_camera' : noVideo ? 'no_video_service' : null;
  const onvifService =
    ws?.xaddr && ws.port
      ? { port: ws.port, xaddr: ws.xaddr }
      : onvif
        ? { port: onvif.port, xaddr: onvif.xaddr }
        : null;
  return {
    id: knowledge.address,
    address: knowledge.address,
    mac: knowledge.mac,
    manufacturer: onvif?.manufacturer ?? ws?.manufacturer ?? null,
    model: onvif?.model ?? ws?.hardware ?? null,
    name: ws?.name ?? null,
    onvif: onvifService,
    rtsp: rtsp ? { port: rtsp.port, url: rtsp.url } : null,
    needs_credentials: mergeNeeds(onvif?.needsCredentials ?? null, rtsp?.needsCredentials ?? null),
    supported: unsupported_code === null,
    unsupported_reason:
      unsupported_code === 'not_a_camera'
        ? NOT_A_CAMERA_REASON
        : unsupported_code === 'no_video_service'
          ? NO_VIDEO_SERVICE_REASON
          : null,
    unsupported_code,
    found_by: (['ws-discovery', 'port-scan'] as const).filter((source) => knowledge.foundBy.has(source)),
  };
}
