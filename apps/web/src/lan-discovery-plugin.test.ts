// @vitest-environment node
/**
 * The Android plugin's network half (plugins/lan-discovery: LanTransport.java, plain Java) compiled with javac
 * and run against a simulated camera on 127.0.4.2: WS-Discovery by unicast, the port check, SOAP over HTTP,
 * the snapshot (its base64 against Node's), RTSP with the camera's Digest login. The bridge around it needs
 * the Android SDK (.ci/android-compile, docs/mobile.md).
 */
import { startSimulatedCameras, testMedia, type SimulatedCameras } from '@homesitter/cameras/testing';
import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LOGIN = { username: 'owner', password: 'camera-pass' };
const plugin = path.resolve(__dirname, '../plugins/lan-discovery/android/src');
let classes: string;
let network: SimulatedCameras;
let wsPort: number;

beforeAll(async () => {
  classes = mkdtempSync(path.join(tmpdir(), 'lan-transport-'));
  await promisify(execFile)('javac', [
    '-d',
    classes,
    path.join(plugin, 'main/java/app/homesitter/landiscovery/LanTransport.java'),
    path.join(plugin, 'test/java/app/homesitter/landiscovery/LanTransportCli.java'),
  ]);
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  wsPort = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  network = await startSimulatedCameras({
    count: 1,
    firstAddress: '127.0.4.2',
    wsDiscoveryPort: wsPort,
    credentials: LOGIN,
  });
}, 60_000);

afterAll(async () => {
  await network?.stop();
  if (classes) rmSync(classes, { recursive: true, force: true });
});

/** Runs one call of LanTransport; answers its first line (status or error) and the rest (the body). */
function java(args: (string | number)[], input = ''): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('java', [
      '-cp',
      classes,
      'app.homesitter.landiscovery.LanTransportCli',
      ...args.map(String),
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`java exited ${code}: ${err}`));
      const newline = out.indexOf('\n');
      resolve({ head: out.slice(0, newline), body: out.slice(newline + 1) });
    });
    child.stdin.end(input);
  });
}

const soap = (operation: string) =>
  '<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" ' +
  `xmlns:tds="http://www.onvif.org/ver10/device/wsdl"><s:Body><tds:${operation}/></s:Body></s:Envelope>`;

describe('LanTransport.java against a simulated camera', () => {
  it('probes WS-Discovery by unicast and reads the ProbeMatches', async () => {
    const probe =
      '<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" ' +
      'xmlns:a="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:d="http://schemas.xmlsoap.org/ws/2005/04/discovery" ' +
      'xmlns:dn="http://www.onvif.org/ver10/network/wsdl"><s:Header><a:MessageID>urn:uuid:5d1b7a4e-0000-4000-8000-000000000001' +
      '</a:MessageID></s:Header><s:Body><d:Probe><d:Types>dn:NetworkVideoTransmitter</d:Types></d:Probe></s:Body></s:Envelope>';
    const { head, body } = await java(['udp', '127.0.4.2', wsPort, 3000], probe);
    expect(head).toBe('1');
    expect(body.startsWith('127.0.4.2 ')).toBe(true);
    expect(body).toContain('ProbeMatches');
    expect(body).toContain('5d1b7a4e-0000-4000-8000-000000000001');
  });

  it('checks ports: the camera open, a port nothing listens on closed', async () => {
    expect((await java(['tcp', '127.0.4.2', network.onvifPort])).head).toBe('open');
    expect((await java(['tcp', '127.0.4.2', 1])).head).toBe('closed');
  });

  it('asks the ONVIF device service over HTTP and fetches the snapshot as base64', async () => {
    const xaddr = network.cameras[0]!.xaddr;
    const time = await java(['http', xaddr, 'POST', '-', '', 'text'], soap('GetSystemDateAndTime'));
    expect(time.head).toBe('200');
    expect(time.body).toContain('GetSystemDateAndTimeResponse');
    const refused = await java(['http', xaddr, 'POST', '-', '', 'text'], soap('GetDeviceInformation'));
    expect(refused.body).toContain('NotAuthorized');

    const snapshot = await java([
      'http',
      xaddr.replace('/onvif/device_service', '/onvif/snapshot.jpg'),
      'GET',
      LOGIN.username,
      LOGIN.password,
      'base64',
    ]);
    expect(snapshot.head).toBe('200');
    expect(snapshot.body).toBe(readFileSync(testMedia('empty-driveway.jpg')).toString('base64'));
  });

  it('answers the RTSP Digest challenge with the login, and reports a refused one', async () => {
    // Nothing publishes here: past the login, the server says there is no such stream.
    const url = `rtsp://127.0.4.2:${network.rtspPort}/main`;
    expect((await java(['rtsp', url, 'DESCRIBE', '-'])).head).toBe('401');
    expect((await java(['rtsp', url, 'DESCRIBE', LOGIN.username, LOGIN.password])).head).toBe('404');
    expect((await java(['rtsp', url, 'DESCRIBE', LOGIN.username, 'wrong'])).head).toBe('401');
  });

  it('says unreachable for a closed port', async () => {
    expect((await java(['rtsp', 'rtsp://127.0.4.2:1/', 'OPTIONS', '-'])).head).toBe('unreachable');
  });
});
