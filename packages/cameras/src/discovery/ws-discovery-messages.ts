/**
 * The WS-Discovery messages (module comment of ws-discovery.ts): the Probe we send, the ProbeMatches we read,
 * and how long to probe and listen. No sockets here, so the phone app's discovery (transport/) sends the same
 * probes and reads the answers by the same rules over its own transport.
 */
import { parseIpv4 } from './ipv4.js';
import { elementList, elements, elementText, withoutComments } from './xml.js';

export const WS_DISCOVERY_GROUP = '239.255.255.250';
export const WS_DISCOVERY_PORT = 3702;

/** Each probe is sent this many times… */
export const PROBE_REPEATS = 3;
/** …this far apart (so over the first 1.5 s)… */
export const PROBE_INTERVAL_MS = 750;
/** …and answers are awaited this long after the last one (ONVIF devices answer within a few seconds). */
export const LISTEN_AFTER_LAST_PROBE_MS = 3_000;
/** A ProbeMatches is a few kB; anything much larger is not one. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

const NS = {
  soap: 'http://www.w3.org/2003/05/soap-envelope',
  addressing: 'http://schemas.xmlsoap.org/ws/2004/08/addressing',
  discovery: 'http://schemas.xmlsoap.org/ws/2005/04/discovery',
  network: 'http://www.onvif.org/ver10/network/wsdl',
  device: 'http://www.onvif.org/ver10/device/wsdl',
};

/** One `ProbeMatch` as the device sent it (lists split on white space, entities decoded). */
export interface ProbeMatch {
  /** The device's endpoint reference, usually `urn:uuid:…`. */
  endpoint: string | null;
  /** QNames as sent, e.g. `dn:NetworkVideoTransmitter`, `tds:Device`. */
  types: string[];
  scopes: string[];
  xaddrs: string[];
}

export interface ProbeMatches {
  /** The MessageID of the probe this answers; null when the message carries none. */
  relatesTo: string | null;
  matches: ProbeMatch[];
}

/** What one match tells us about a device. */
export interface WsDiscoveryAnswer {
  /** The device's IPv4 address: its device service's host, else the address the answer came from. */
  address: string;
  /** The device service: the first http XAddr (one named by an IPv4 address first, https last); null when none. */
  xaddr: string | null;
  port: number | null;
  /** Its types include `NetworkVideoTransmitter`. */
  camera: boolean;
  types: string[];
  /** From the scopes, URL-decoded: `onvif://www.onvif.org/name/…`, `/hardware/…`, `/mfr/…` (or `/manufacturer/…`). */
  name: string | null;
  hardware: string | null;
  manufacturer: string | null;
}

/** A Probe for cameras (`camera`) or for any ONVIF device (`device`), with the given MessageID. */
export function buildProbe(messageId: string, target: 'camera' | 'device'): string {
  const types = target === 'camera' ? 'dn:NetworkVideoTransmitter' : 'tds:Device';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<s:Envelope xmlns:s="${NS.soap}" xmlns:a="${NS.addressing}" xmlns:d="${NS.discovery}" ` +
    `xmlns:dn="${NS.network}" xmlns:tds="${NS.device}">` +
    '<s:Header>' +
    `<a:Action s:mustUnderstand="1">${NS.discovery}/Probe</a:Action>` +
    `<a:MessageID>${messageId}</a:MessageID>` +
    `<a:ReplyTo><a:Address>${NS.addressing}/role/anonymous</a:Address></a:ReplyTo>` +
    '<a:To s:mustUnderstand="1">urn:schemas-xmlsoap-org:ws:2005:04:discovery</a:To>' +
    '</s:Header>' +
    `<s:Body><d:Probe><d:Types>${types}</d:Types></d:Probe></s:Body>` +
    '</s:Envelope>'
  );
}

/** Reads a ProbeMatches message; null when the text is not one (no ProbeMatches element). */
export function parseProbeMatches(xml: string): ProbeMatches | null {
  const text = withoutComments(xml);
  const body = elements(text, 'ProbeMatches')[0];
  if (body === undefined) return null;
  return {
    relatesTo: elementText(text, 'RelatesTo'),
    matches: elements(body, 'ProbeMatch').map((match) => ({
      endpoint: elementText(elements(match, 'EndpointReference')[0] ?? '', 'Address'),
      types: elementList(match, 'Types'),
      scopes: elementList(match, 'Scopes'),
      xaddrs: elementList(match, 'XAddrs'),
    })),
  };
}

/**
 * What a match says about its device. `source` is the address the answer came from, used when the
 * device service is not named by an IPv4 address. Null when neither gives an IPv4 address.
 */
export function describeMatch(match: ProbeMatch, source: string): WsDiscoveryAnswer | null {
  // The first http XAddr, one named by an IPv4 address before one named otherwise (IPv6, a name).
  const ranked = (x: string) => {
    const host = hostOf(x);
    if (host === null || !/^https?:\/\//i.test(x)) return Infinity;
    return (/^https:/i.test(x) ? 2 : 0) + (parseIpv4(host) === null ? 1 : 0);
  };
  const best = Math.min(...match.xaddrs.map(ranked));
  const xaddr = match.xaddrs.find((x) => ranked(x) === best && best !== Infinity) ?? null;
  const url = xaddr ? new URL(xaddr) : null;
  const host = url?.hostname ?? '';
  const address = parseIpv4(host) !== null ? host : parseIpv4(source) !== null ? source : null;
  if (address === null) return null;
  const scope = (...names: string[]) => scopeValue(match.scopes, names);
  return {
    address,
    xaddr,
    port: url ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : null,
    camera: match.types.some((type) => localName(type).toLowerCase() === 'networkvideotransmitter'),
    types: match.types,
    name: scope('name'),
    hardware: scope('hardware'),
    manufacturer: scope('mfr', 'manufacturer'),
  };
}

/** `urn:uuid:ABC`, `uuid:abc` and `abc` are the same MessageID. */
export function sameMessageId(a: string, b: string): boolean {
  const bare = (id: string) =>
    id
      .trim()
      .toLowerCase()
      .replace(/^urn:/, '')
      .replace(/^uuid:/, '');
  return bare(a) === bare(b);
}

// ---- reading the answer ----

/** `dn:NetworkVideoTransmitter` and `{http://…}NetworkVideoTransmitter` → `NetworkVideoTransmitter`. */
function localName(qname: string): string {
  return qname.replace(/^.*[:}]/, '');
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** The first `onvif://www.onvif.org/<name>/<value>` scope among the names, URL-decoded; null when none. */
function scopeValue(scopes: string[], names: string[]): string | null {
  for (const scope of scopes) {
    const match = /^onvif:\/\/www\.onvif\.org\/([^/]+)\/(.+)$/i.exec(scope);
    if (!match || !names.includes(match[1]!.toLowerCase())) continue;
    const value = decodeScope(match[2]!.replace(/\/+$/, '')).trim();
    if (value) return value;
  }
  return null;
}

function decodeScope(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A stray `%` or a Latin-1 escape: keep what can be read.
    return value;
  }
}
