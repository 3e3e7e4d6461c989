/**
 * The WS-Discovery side of a simulated ONVIF device: joins the multicast group (on 127.0.0.1 by default, so
 * tests run on loopback) and answers each Probe whose Types it matches with a ProbeMatches naming its XAddrs,
 * Types and Scopes, sent from the device's own address to the prober. Each MessageID is answered once, as
 * SOAP-over-UDP asks of repeated messages.
 */
import { randomUUID } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { elementList, elements, elementText, withoutComments } from '../discovery/xml.js';

export interface WsDiscoveryResponderOptions {
  /** The device's address: answers are sent from it. */
  address: string;
  /** The group's port (a test picks a free one so parallel runs do not hear each other). */
  port: number;
  /** Default 239.255.255.250. */
  group?: string;
  /** The interface address the group is joined on; default 127.0.0.1. */
  interface?: string;
  /** The device service addresses, e.g. `http://127.0.0.2:8080/onvif/device_service`. */
  xaddrs: string[];
  /** Default a camera's: `dn:NetworkVideoTransmitter tds:Device`. */
  types?: string[];
  /** `onvif://www.onvif.org/…` scopes, as the device would send them (already encoded). */
  scopes?: string[];
}

export interface WsDiscoveryResponder {
  /** The device's endpoint reference (`urn:uuid:…`). */
  endpoint: string;
  /** Probes heard (every copy) and ProbeMatches sent. */
  stats(): { probes: number; answers: number };
  close(): Promise<void>;
}

const NS = {
  soap: 'http://www.w3.org/2003/05/soap-envelope',
  addressing: 'http://schemas.xmlsoap.org/ws/2004/08/addressing',
  discovery: 'http://schemas.xmlsoap.org/ws/2005/04/discovery',
  network: 'http://www.onvif.org/ver10/network/wsdl',
  device: 'http://www.onvif.org/ver10/device/wsdl',
};

export const CAMERA_TYPES = ['dn:NetworkVideoTransmitter', 'tds:Device'];

export async function startWsDiscoveryResponder(
  options: WsDiscoveryResponderOptions,
): Promise<WsDiscoveryResponder> {
  const group = options.group ?? '239.255.255.250';
  const types = options.types ?? CAMERA_TYPES;
  const endpoint = `urn:uuid:${randomUUID()}`;
  const answered = new Set<string>();
  let probes = 0;
  let answers = 0;
  let messageNumber = 0;

  const listener = await bound(createSocket({ type: 'udp4', reuseAddr: true }), options.port, group);
  let sender: Socket | undefined;
  // Devices listen on port 3702 of their own address too: iOS probes each address (no multicast there).
  let unicast: Socket;
  try {
    listener.addMembership(group, options.interface ?? '127.0.0.1');
    sender = await bound(createSocket({ type: 'udp4' }), 0, options.address);
    unicast = await bound(createSocket({ type: 'udp4' }), options.port, options.address);
  } catch (err) {
    listener.close();
    sender?.close();
    throw err;
  }
  const answerFrom: Socket = sender;

  const onProbe = (message: Buffer, remote: RemoteInfo) => {
    const probe = readProbe(message.toString('utf8'));
    if (!probe) return;
    probes += 1;
    if (answered.has(probe.messageId) || !matches(probe.types, types)) return;
    answered.add(probe.messageId);
    messageNumber += 1;
    const answer = probeMatchesXml({
      relatesTo: probe.messageId,
      endpoint,
      types,
      scopes: options.scopes ?? [],
      xaddrs: options.xaddrs,
      messageNumber,
    });
    answerFrom.send(answer, remote.port, remote.address, (err) => {
      if (!err) answers += 1;
    });
  };
  listener.on('message', onProbe);
  unicast.on('message', onProbe);

  return {
    endpoint,
    stats: () => ({ probes, answers }),
    async close() {
      await Promise.all(
        [listener, answerFrom, unicast].map((socket) => new Promise<void>((r) => socket.close(() => r()))),
      );
    },
  };
}

/** A ProbeMatches as an ONVIF camera sends it (gSOAP style, `SOAP-ENV`/`wsa`/`d` prefixes). */
export function probeMatchesXml(match: {
  relatesTo: string;
  endpoint: string;
  types: string[];
  scopes: string[];
  xaddrs: string[];
  messageNumber?: number;
}): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${NS.soap}" xmlns:wsa="${NS.addressing}" xmlns:d="${NS.discovery}" ` +
    `xmlns:dn="${NS.network}" xmlns:tds="${NS.device}">` +
    '<SOAP-ENV:Header>' +
    `<wsa:MessageID>urn:uuid:${randomUUID()}</wsa:MessageID>` +
    `<wsa:RelatesTo>${escape(match.relatesTo)}</wsa:RelatesTo>` +
    `<wsa:To SOAP-ENV:mustUnderstand="true">${NS.addressing}/role/anonymous</wsa:To>` +
    `<wsa:Action SOAP-ENV:mustUnderstand="true">${NS.discovery}/ProbeMatches</wsa:Action>` +
    `<d:AppSequence SOAP-ENV:mustUnderstand="true" MessageNumber="${match.messageNumber ?? 1}" InstanceId="1"/>` +
    '</SOAP-ENV:Header>' +
    '<SOAP-ENV:Body><d:ProbeMatches><d:ProbeMatch>' +
    `<wsa:EndpointReference><wsa:Address>${escape(match.endpoint)}</wsa:Address></wsa:EndpointReference>` +
    `<d:Types>${escape(match.types.join(' '))}</d:Types>` +
    `<d:Scopes>${escape(match.scopes.join(' '))}</d:Scopes>` +
    `<d:XAddrs>${escape(match.xaddrs.join(' '))}</d:XAddrs>` +
    '<d:MetadataVersion>1</d:MetadataVersion>' +
    '</d:ProbeMatch></d:ProbeMatches></SOAP-ENV:Body></SOAP-ENV:Envelope>'
  );
}

function readProbe(xml: string): { messageId: string; types: string[] } | null {
  const text = withoutComments(xml);
  const probe = elements(text, 'Probe')[0];
  const messageId = elementText(text, 'MessageID');
  if (probe === undefined || !messageId) return null;
  return { messageId, types: elementList(probe, 'Types') };
}

/** WS-Discovery's rule: every type the probe asks for is one of ours (compared by local name). */
function matches(requested: string[], ours: string[]): boolean {
  const local = (qname: string) => qname.replace(/^.*[:}]/, '');
  const have = new Set(ours.map(local));
  return requested.every((type) => have.has(local(type)));
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function bound(socket: Socket, port: number, address: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('error', (err) => {
      socket.close();
      reject(err);
    });
    socket.bind(port, address, () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve(socket);
    });
  });
}
