import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { configureCamera } from '../configure.js';
import { runWsDiscovery, type WsDiscoveryAnswer } from '../discovery/ws-discovery.js';
import { createNetworkPolicy } from '../networks.js';
import { jpegSize } from '../rtsp-probe.js';
import { startSimulatedCameras, type SimulatedCameras } from './simulated-cameras.js';

const LOGIN = { username: 'owner', password: 'p@ss:word' };
const running: SimulatedCameras[] = [];
afterEach(async () => {
  for (const network of running.splice(0)) await network.stop();
});

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

async function start(options: Parameters<typeof startSimulatedCameras>[0]): Promise<SimulatedCameras> {
  const network = await startSimulatedCameras(options);
  running.push(network);
  return network;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('simulated cameras', () => {
  it('puts each camera on its own address, all on the same two ports, announced over WS-Discovery', async () => {
    const wsDiscoveryPort = await freeUdpPort();
    const network = await start({
      count: 3,
      firstAddress: '127.0.1.2',
      wsDiscoveryPort,
      credentials: LOGIN,
      unsupported: 1,
      plainHttp: 1,
    });
    expect(network.cameras.map((camera) => camera.address)).toEqual(['127.0.1.2', '127.0.1.3', '127.0.1.4']);
    expect(network.unsupported.map((device) => device.address)).toEqual(['127.0.1.5']);
    expect(network.webServers).toEqual([{ address: '127.0.1.6', port: network.onvifPort }]);
    for (const camera of network.cameras) {
      expect(camera).toMatchObject({ onvifPort: network.onvifPort, rtspPort: network.rtspPort, ...LOGIN });
      expect(camera.rtspUrl).toBe(`rtsp://${camera.address}:${network.rtspPort}/main`);
      expect(await accepts(camera.address, network.onvifPort)).toBe(true);
      expect(await accepts(camera.address, network.rtspPort)).toBe(true);
    }

    const answers: WsDiscoveryAnswer[] = [];
    await runWsDiscovery({
      interfaces: ['127.0.0.1'],
      port: wsDiscoveryPort,
      signal: new AbortController().signal,
      onAnswer: (answer) => answers.push(answer),
    });
    const cameraAnswers = answers.filter((answer) => answer.camera);
    expect(new Set(cameraAnswers.map((answer) => answer.xaddr))).toEqual(
      new Set(network.cameras.map((camera) => camera.xaddr)),
    );
    expect(cameraAnswers[0]).toMatchObject({ manufacturer: 'Homesitter', hardware: 'SimCam 100' });
    // The door controller answers the generic probe only.
    expect(answers.filter((answer) => !answer.camera).map((answer) => answer.address)).toEqual(['127.0.1.5']);
    expect(network.responders.at(-1)!.stats().answers).toBe(1);

    await network.stop();
    expect(await accepts('127.0.1.2', network.onvifPort)).toBe(false);
  });

  it('streams H.264 from every camera when asked, so configuration succeeds', async () => {
    const network = await start({
      count: 2,
      firstAddress: '127.0.1.20',
      wsDiscoveryPort: await freeUdpPort(),
      credentials: LOGIN,
      media: true,
    });
    const camera = network.cameras[1]!;
    const result = await configureCamera(
      { type: 'onvif', host: camera.address, port: camera.onvifPort, ...LOGIN },
      { policy: createNetworkPolicy('127.0.0.0/8') },
    );
    expect(result.camera.main.url).toBe(camera.rtspUrl);
    expect(result.camera.sub?.url).toBe(`rtsp://${camera.address}:${camera.rtspPort}/sub`);
    expect(result.camera.device).toMatchObject({ manufacturer: 'Homesitter', model: 'SimCam 100' });
    expect(jpegSize(result.firstFrame)).toEqual({ width: 1280, height: 720 });
  });
});
