/**
 * The phone's camera test on the Node transport against simulated cameras on 127.0.2.x (ONVIF with a
 * WS-Security login, RTSP with a Digest login, a publisher feeding H.264 main and sub streams): the verdicts
 * and problem texts the helper gives.
 */
import { CAMERA_CONFIGURATION_ERRORS } from '@homesitter/contract';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../test-support.js';
import { startOnvifSimulator } from '../testing/onvif-simulator.js';
import { startSimulatedCameras, type SimulatedCameras } from '../testing/simulated-cameras.js';
import { checkCameraOverTransport } from './camera-check.js';
import { createNodeTransport } from './node-transport.js';

const LOGIN = { username: 'owner', password: 'se:cret/pw' };
const transport = createNodeTransport();
let network: SimulatedCameras;

beforeAll(async () => {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const wsDiscoveryPort = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  network = await startSimulatedCameras({
    count: 1,
    firstAddress: '127.0.2.2',
    wsDiscoveryPort,
    credentials: LOGIN,
    media: true,
  });
}, 60_000);

afterAll(async () => {
  await network?.stop();
});

const onvif = (
  overrides: Partial<{ host: string; port: number; username: string; password: string }> = {},
) => ({
  type: 'onvif' as const,
  host: network.cameras[0]!.address,
  port: network.onvifPort,
  ...LOGIN,
  ...overrides,
});

describe('checkCameraOverTransport (Node transport)', () => {
  it('tests an ONVIF camera: device, H.264 main and sub stream details from the camera, its snapshot', async () => {
    const result = await checkCameraOverTransport({ transport, connection: onvif() });
    expect(result).toMatchObject({
      verdict: 'works',
      error_code: null,
      message: 'Homesitter can record this camera.',
      video: { codec: 'h264', width: 1280, height: 720 },
      sub_video: { codec: 'h264', width: 640, height: 360, fps: 10 },
      device: { manufacturer: 'Homesitter', model: 'SimCam 100' },
      motion_source: 'onvif',
    });
    expect(result.snapshot).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it('tests a camera by its RTSP address and login (no snapshot: the phone decodes no video)', async () => {
    const result = await checkCameraOverTransport({
      transport,
      connection: { type: 'rtsp', url: network.cameras[0]!.rtspUrl, ...LOGIN },
    });
    expect(result).toMatchObject({
      verdict: 'works',
      video: { codec: 'h264', width: 1280, height: 720 },
      snapshot: null,
      motion_source: 'frames',
    });
  });

  it('says the login was refused, over ONVIF and over RTSP', async () => {
    const wrong = { username: 'owner', password: 'nope' };
    for (const connection of [
      onvif(wrong),
      { type: 'rtsp' as const, url: network.cameras[0]!.rtspUrl, ...wrong },
    ]) {
      const result = await checkCameraOverTransport({ transport, connection });
      expect(result).toMatchObject({
        verdict: 'failed',
        error_code: 'wrong_credentials',
        message: CAMERA_CONFIGURATION_ERRORS.wrong_credentials,
        snapshot: null,
      });
    }
  });

  it('says a closed port or a missing stream is unreachable', async () => {
    const closed = await checkCameraOverTransport({
      transport,
      connection: onvif({ host: '127.0.0.1', port: await closedPort() }),
    });
    expect(closed).toMatchObject({ verdict: 'failed', error_code: 'unreachable' });
    const missing = await checkCameraOverTransport({
      transport,
      connection: { type: 'rtsp', url: `rtsp://127.0.2.2:${network.rtspPort}/nothing-here`, ...LOGIN },
    });
    expect(missing).toMatchObject({
      error_code: 'unreachable',
      message: CAMERA_CONFIGURATION_ERRORS.unreachable,
    });
  });

  it('calls a camera with H.265 streams only unsupported', async () => {
    const camera = await startOnvifSimulator({
      ...LOGIN,
      host: '127.0.2.20',
      rtspBase: `rtsp://127.0.2.20:${network.rtspPort}`,
      profiles: [{ token: 'main', name: 'Main', encoding: 'H265', width: 1920, height: 1080, path: '/main' }],
    });
    try {
      const result = await checkCameraOverTransport({
        transport,
        connection: { type: 'onvif', host: camera.host, port: camera.port, ...LOGIN },
      });
      expect(result).toMatchObject({
        verdict: 'unsupported',
        error_code: 'no_supported_stream',
        message: CAMERA_CONFIGURATION_ERRORS.no_supported_stream,
      });
    } finally {
      await camera.close();
    }
  });

  it('gives up at its timeout on a camera that never answers, naming the time it waited', async () => {
    const camera = await startOnvifSimulator({
      ...LOGIN,
      host: '127.0.2.21',
      rtspBase: 'rtsp://127.0.2.21:554',
      neverAnswer: true,
    });
    try {
      const result = await checkCameraOverTransport({
        transport,
        connection: { type: 'onvif', host: camera.host, port: camera.port, ...LOGIN },
        timeoutMs: 300,
      });
      expect(result).toMatchObject({
        verdict: 'failed',
        error_code: 'timed_out',
        message: 'The camera did not answer in time (0 seconds).',
      });
    } finally {
      await camera.close();
    }
  });
});
