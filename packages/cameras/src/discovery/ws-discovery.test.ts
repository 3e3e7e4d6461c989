import { randomUUID } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { probeMatchesXml, startWsDiscoveryResponder } from '../testing/ws-discovery-responder.js';
import {
  buildProbe,
  describeMatch,
  parseProbeMatches,
  runWsDiscovery,
  sameMessageId,
  type WsDiscoveryAnswer,
} from './ws-discovery.js';
import { elementText } from './xml.js';

const PROBE_ID = 'urn:uuid:6f0c0a3e-2b0d-4e0c-9a3c-1a2b3c4d5e6f';

/** As a Hikvision camera answers: `env`/`wsadis`/`wsdd` prefixes, an IPv6 XAddr too, `uuid:` RelatesTo. */
const HIKVISION = `<?xml version="1.0" encoding="UTF-8"?>
<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:soapenc="http://www.w3.org/2003/05/soap-encoding"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:tt="http://www.onvif.org/ver10/schema" xmlns:tds="http://www.onvif.org/ver10/device/wsdl"
 xmlns:wsadis="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:wsdd="http://schemas.xmlsoap.org/ws/2005/04/discovery"
 xmlns:dn="http://www.onvif.org/ver10/network/wsdl">
<env:Header>
<wsadis:MessageID>urn:uuid:11b7a3f2-1dd2-11b2-a105-441946123456</wsadis:MessageID>
<wsadis:RelatesTo>uuid:6F0C0A3E-2B0D-4E0C-9A3C-1A2B3C4D5E6F</wsadis:RelatesTo>
<wsadis:To>http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous</wsadis:To>
<wsadis:Action>http://schemas.xmlsoap.org/ws/2005/04/discovery/ProbeMatches</wsadis:Action>
<wsdd:AppSequence InstanceId="1700000000" MessageNumber="42"/>
</env:Header>
<env:Body>
<wsdd:ProbeMatches>
<wsdd:ProbeMatch>
<wsadis:EndpointReference>
<wsadis:Address>urn:uuid:11b7a3f2-1dd2-11b2-a105-441946123456</wsadis:Address>
</wsadis:EndpointReference>
<wsdd:Types>dn:NetworkVideoTransmitter tds:Device</wsdd:Types>
<wsdd:Scopes>onvif://www.onvif.org/type/video_encoder onvif://www.onvif.org/Profile/Streaming onvif://www.onvif.org/Profile/G onvif://www.onvif.org/MAC/44:19:b6:12:34:56 onvif://www.onvif.org/hardware/DS-2CD2143G0-I onvif://www.onvif.org/name/HIKVISION%20DS-2CD2143G0-I onvif://www.onvif.org/location/city/hangzhou</wsdd:Scopes>
<wsdd:XAddrs>http://[fe80::4619:b6ff:fe12:3456]/onvif/device_service http://192.168.1.64/onvif/device_service</wsdd:XAddrs>
<wsdd:MetadataVersion>10</wsdd:MetadataVersion>
</wsdd:ProbeMatch>
</wsdd:ProbeMatches>
</env:Body>
</env:Envelope>`;

/** Default namespaces instead of prefixes, lists over several lines, a port in the XAddrs, `mfr` scope. */
const DEFAULT_NAMESPACES = `<?xml version="1.0" encoding="utf-8"?>
<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://schemas.xmlsoap.org/ws/2004/08/addressing">
  <s:Header>
    <a:Action s:mustUnderstand="1">http://schemas.xmlsoap.org/ws/2005/04/discovery/ProbeMatches</a:Action>
    <a:RelatesTo>${PROBE_ID}</a:RelatesTo>
  </s:Header>
  <s:Body>
    <ProbeMatches xmlns="http://schemas.xmlsoap.org/ws/2005/04/discovery">
      <ProbeMatch>
        <a:EndpointReference><a:Address>urn:uuid:9a8b7c6d-0000-1111-2222-333344445555</a:Address></a:EndpointReference>
        <Types xmlns:tdn="http://www.onvif.org/ver10/network/wsdl">tdn:NetworkVideoTransmitter</Types>
        <Scopes>
          onvif://www.onvif.org/Profile/Streaming
          onvif://www.onvif.org/name/Garden%20%26%20Gate
          onvif://www.onvif.org/hardware/IPC-HDW2431T
          onvif://www.onvif.org/mfr/Dahua
        </Scopes>
        <XAddrs>https://192.168.1.108/onvif/device_service
          http://192.168.1.108:8080/onvif/device_service</XAddrs>
        <MetadataVersion>1</MetadataVersion>
      </ProbeMatch>
    </ProbeMatches>
  </s:Body>
</s:Envelope>`;

/** A recorder announcing two channels' worth of devices in one message, `tds:Device` only, entities inside. */
const RECORDER = `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://www.w3.org/2003/05/soap-envelope"
 xmlns:wsa5="http://www.w3.org/2005/08/addressing" xmlns:wsdd="http://schemas.xmlsoap.org/ws/2005/04/discovery">
<SOAP-ENV:Header><wsa5:RelatesTo>${PROBE_ID}</wsa5:RelatesTo><!-- <wsa5:RelatesTo>urn:uuid:other</wsa5:RelatesTo> --></SOAP-ENV:Header>
<SOAP-ENV:Body><wsdd:ProbeMatches>
<wsdd:ProbeMatch><wsdd:Types>tds:Device</wsdd:Types>
<wsdd:Scopes>onvif://www.onvif.org/type/NVR onvif://www.onvif.org/name/Rec%C3%B6rder onvif://www.onvif.org/manufacturer/Acme&amp;Co onvif://www.onvif.org/hardware/NVR%ZZ</wsdd:Scopes>
<wsdd:XAddrs>http://192.168.1.200:8000/onvif/device_service</wsdd:XAddrs></wsdd:ProbeMatch>
<wsdd:ProbeMatch><wsdd:Types>tds:Device</wsdd:Types><wsdd:Scopes/><wsdd:XAddrs>http://192.168.1.201/onvif/device_service</wsdd:XAddrs></wsdd:ProbeMatch>
</wsdd:ProbeMatches></SOAP-ENV:Body></SOAP-ENV:Envelope>`;

describe('reading ProbeMatches', () => {
  it('reads a Hikvision answer: the IPv4 device service, the camera type, name and model from the scopes', () => {
    const parsed = parseProbeMatches(HIKVISION)!;
    expect(sameMessageId(parsed.relatesTo!, PROBE_ID)).toBe(true);
    expect(parsed.matches).toHaveLength(1);
    expect(describeMatch(parsed.matches[0]!, '192.168.1.64')).toEqual({
      address: '192.168.1.64',
      xaddr: 'http://192.168.1.64/onvif/device_service',
      port: 80,
      camera: true,
      types: ['dn:NetworkVideoTransmitter', 'tds:Device'],
      name: 'HIKVISION DS-2CD2143G0-I',
      hardware: 'DS-2CD2143G0-I',
      manufacturer: null,
    } satisfies WsDiscoveryAnswer);
  });

  it('reads an answer in default namespaces with lists over several lines, preferring http to https', () => {
    const parsed = parseProbeMatches(DEFAULT_NAMESPACES)!;
    expect(parsed.relatesTo).toBe(PROBE_ID);
    const answer = describeMatch(parsed.matches[0]!, '192.168.1.108');
    expect(answer).toMatchObject({
      address: '192.168.1.108',
      xaddr: 'http://192.168.1.108:8080/onvif/device_service',
      port: 8080,
      camera: true,
      name: 'Garden & Gate',
      hardware: 'IPC-HDW2431T',
      manufacturer: 'Dahua',
    });
  });

  it('reads every match of a recorder, which is no camera, keeping scopes it cannot decode as sent', () => {
    const parsed = parseProbeMatches(RECORDER)!;
    expect(parsed.relatesTo).toBe(PROBE_ID);
    const [first, second] = parsed.matches.map((match) => describeMatch(match, '192.168.1.200'));
    expect(first).toMatchObject({
      address: '192.168.1.200',
      port: 8000,
      camera: false,
      name: 'Recörder',
      manufacturer: 'Acme&Co',
      hardware: 'NVR%ZZ',
    });
    expect(second).toMatchObject({ address: '192.168.1.201', port: 80, camera: false, name: null });
  });

  it('takes the address the answer came from when the device service is not named by an IPv4 address', () => {
    const match = {
      endpoint: null,
      types: ['dn:NetworkVideoTransmitter'],
      scopes: [],
      xaddrs: ['http://cam.local/onvif'],
    };
    expect(describeMatch(match, '192.168.1.30')).toMatchObject({ address: '192.168.1.30', port: 80 });
    expect(describeMatch({ ...match, xaddrs: [] }, '192.168.1.31')).toMatchObject({
      address: '192.168.1.31',
      xaddr: null,
      port: null,
    });
    expect(describeMatch({ ...match, xaddrs: [] }, 'fe80::1')).toBeNull();
  });

  it('answers null for garbage and never throws', () => {
    const garbage = [
      '',
      'hello',
      '<html><body>ProbeMatches</body></html>',
      '<s:Envelope><s:Body><d:ProbeMatches><d:ProbeMatch><d:Types>',
      buildProbe(PROBE_ID, 'camera'),
      Buffer.from([0xff, 0xfe, 0x00, 0x3c, 0x80]).toString('utf8'),
      '<<<>>>'.repeat(10_000),
    ];
    for (const text of garbage) {
      expect(() => parseProbeMatches(text)).not.toThrow();
      expect(parseProbeMatches(text)?.matches ?? []).toEqual([]);
    }
  });

  it('matches MessageIDs with or without their urn:uuid: prefix, in any case', () => {
    expect(sameMessageId('urn:uuid:ABC-1', 'abc-1')).toBe(true);
    expect(sameMessageId('uuid:abc-1', 'urn:uuid:abc-1')).toBe(true);
    expect(sameMessageId('urn:uuid:abc-1', 'urn:uuid:abc-2')).toBe(false);
  });

  it('sends a SOAP 1.2 Probe for cameras and a generic one for devices', () => {
    const camera = buildProbe(PROBE_ID, 'camera');
    expect(elementText(camera, 'MessageID')).toBe(PROBE_ID);
    expect(elementText(camera, 'Types')).toBe('dn:NetworkVideoTransmitter');
    expect(camera).toContain('http://www.w3.org/2003/05/soap-envelope');
    expect(elementText(buildProbe(PROBE_ID, 'device'), 'Types')).toBe('tds:Device');
  });
});

// ---- on the wire (loopback multicast) ----

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** A raw group member that answers each probe with whatever `answer` makes of its MessageID. */
async function rawDevice(port: number, answer: (messageId: string) => string): Promise<void> {
  const socket: Socket = createSocket({ type: 'udp4', reuseAddr: true });
  await new Promise<void>((resolve) => socket.bind(port, '239.255.255.250', resolve));
  socket.addMembership('239.255.255.250', '127.0.0.1');
  socket.on('message', (message, remote) => {
    const id = elementText(message.toString(), 'MessageID');
    if (id) socket.send(answer(id), remote.port, remote.address);
  });
  closers.push(() => new Promise((resolve) => socket.close(() => resolve())));
}

describe('runWsDiscovery on loopback', () => {
  it('reports answers to its own probes only', async () => {
    const port = await freeUdpPort();
    const camera = await startWsDiscoveryResponder({
      address: '127.0.0.21',
      port,
      xaddrs: ['http://127.0.0.21:8080/onvif/device_service'],
      scopes: ['onvif://www.onvif.org/name/Porch'],
    });
    closers.push(() => camera.close());
    const match = (relatesTo: string, address: string) =>
      probeMatchesXml({
        relatesTo,
        endpoint: `urn:uuid:${randomUUID()}`,
        types: ['dn:NetworkVideoTransmitter'],
        scopes: [],
        xaddrs: [`http://${address}/onvif/device_service`],
      });
    await rawDevice(port, () => match(`urn:uuid:${randomUUID()}`, '127.0.0.22'));
    await rawDevice(port, (id) => match(id, '127.0.0.23').replace(/RelatesTo/g, 'Unrelated'));
    await rawDevice(port, () => 'garbage <d:ProbeMatches>');

    const answers: WsDiscoveryAnswer[] = [];
    await runWsDiscovery({
      interfaces: ['127.0.0.1'],
      port,
      signal: new AbortController().signal,
      onAnswer: (answer) => answers.push(answer),
    });
    expect(new Set(answers.map((answer) => answer.address))).toEqual(new Set(['127.0.0.21']));
    expect(answers[0]).toMatchObject({ camera: true, name: 'Porch', port: 8080 });
    // Two probes (cameras, any device), each sent three times; each MessageID answered once.
    expect(camera.stats()).toEqual({ probes: 6, answers: 2 });
  });

  it('stops at once when aborted, with nothing left open', async () => {
    const port = await freeUdpPort();
    const controller = new AbortController();
    const running = runWsDiscovery({
      interfaces: ['127.0.0.1'],
      port,
      signal: controller.signal,
      onAnswer: () => undefined,
    });
    const started = Date.now();
    setImmediate(() => controller.abort());
    await running;
    // It would listen for 4.5 s otherwise.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('does nothing, and says nothing, without an interface to send from', async () => {
    await expect(
      runWsDiscovery({
        interfaces: ['192.0.2.123'],
        port: 9,
        signal: new AbortController().signal,
        onAnswer: () => undefined,
      }),
    ).resolves.toBeUndefined();
  });
});
