/**
 * configureCamera against real peers on 127.0.0.1: the test RTSP server with ffmpeg publishing to it, the
 * ONVIF simulator, plain sockets that refuse, count or never answer, and the packaged ffprobe/ffmpeg.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureCamera } from './configure.js';
import { defaultFfmpegPath, defaultFfprobePath } from './ffmpeg-path.js';
import { createNetworkPolicy, DEFAULT_CAMERA_NETWORKS } from './networks.js';
import { jpegSize } from './rtsp-probe.js';
import {
  mainAndSub,
  startOnvifSimulator,
  startRtspServer,
  type OnvifSimulator,
  type Publication,
  type RtspTestServer,
} from './testing/index.js';
import type { ConfigurationResult } from './types.js';
import { closedPort, configurationFailure } from './test-support.js';

const USERNAME = 'admin';
const PASSWORD = 'c@mera:pass/1';
const tools = { ffmpegPath: defaultFfmpegPath(), ffprobePath: defaultFfprobePath() };
const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS);

const sockets: Server[] = [];
afterEach(async () => {
  await Promise.all(
    sockets.splice(0).map((server) => {
      server.emit('destroyAll');
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
});

/** A TCP listener on 127.0.0.1 that counts connections and never says anything. */
async function silentListener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    open.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => open.delete(socket));
  });
  server.on('destroyAll', () => open.forEach((s) => s.destroy()));
  sockets.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe('configureCamera against a camera on 127.0.0.1', () => {
  let rtsp: RtspTestServer;
  let publication: Publication & { mainUrl: string; subUrl: string };
  let onvif: OnvifSimulator;

  beforeAll(async () => {
    rtsp = await startRtspServer({ auth: { username: USERNAME, password: PASSWORD } });
    publication = await mainAndSub(rtsp, 'still');
    onvif = await startOnvifSimulator({
      username: USERNAME,
      password: PASSWORD,
      rtspBase: `rtsp://127.0.0.1:${rtsp.port}`,
      manufacturer: 'Acme',
      model: 'Sim 1',
      firmware: '2.0.1',
    });
  });

  afterAll(async () => {
    await onvif?.close();
    await publication?.stop();
    await rtsp?.close();
  });

  describe('RTSP', () => {
    it('configures a camera: H.264 video found and a JPEG of the first frame', async () => {
      const result = await configureCamera(
        { type: 'rtsp', url: publication.mainUrl, username: USERNAME, password: PASSWORD },
        { policy, ...tools },
      );
      expect(result.camera).toEqual({
        main: {
          url: publication.mainUrl,
          username: USERNAME,
          password: PASSWORD,
          video: { codec: 'h264', width: 1280, height: 720 },
          audioCodec: null,
        },
        sub: null,
        snapshotUri: null,
        device: null,
        motionSource: 'frames',
        onvif: null,
      } satisfies ConfigurationResult['camera']);
      expect(result.firstFrame.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(jpegSize(result.firstFrame)).toEqual({ width: 1280, height: 720 });
    });

    it('answers wrong_credentials for a wrong password, without repeating it', async () => {
      const err = await configurationFailure(
        configureCamera(
          { type: 'rtsp', url: publication.mainUrl, username: USERNAME, password: 'not-the-password' },
          { policy, ...tools },
        ),
      );
      expect(err.code).toBe('wrong_credentials');
      expect(err.message).not.toContain('not-the-password');
    });

    it('answers unreachable when nothing listens at the address', async () => {
      const err = await configurationFailure(
        configureCamera(
          {
            type: 'rtsp',
            url: `rtsp://127.0.0.1:${await closedPort()}/main`,
            username: USERNAME,
            password: PASSWORD,
          },
          { policy, ...tools },
        ),
      );
      expect(err.code).toBe('unreachable');
    });

    it('answers network_not_allowed for an address outside CAMERA_NETWORKS, without connecting', async () => {
      const camera = await silentListener();
      const err = await configurationFailure(
        configureCamera(
          { type: 'rtsp', url: `rtsp://127.0.0.1:${camera.port}/main` },
          { policy: createNetworkPolicy('10.0.0.0/8'), ...tools },
        ),
      );
      expect(err.code).toBe('network_not_allowed');
      expect(camera.connections()).toBe(0);
    });

    it('answers timed_out when the camera accepts the connection and never answers', async () => {
      const camera = await silentListener();
      const err = await configurationFailure(
        configureCamera(
          { type: 'rtsp', url: `rtsp://127.0.0.1:${camera.port}/main` },
          { policy, ...tools, timeoutMs: 2_000 },
        ),
      );
      expect(err.code).toBe('timed_out');
      expect(camera.connections()).toBeGreaterThan(0);
    });
  });

  describe('ONVIF', () => {
    it('configures a camera: device, main and sub streams, motion events and a first frame', async () => {
      const result = await configureCamera(
        { type: 'onvif', host: '127.0.0.1', port: onvif.port, username: USERNAME, password: PASSWORD },
        { policy, ...tools },
      );
      expect(result.camera.device).toEqual({ manufacturer: 'Acme', model: 'Sim 1', firmware: '2.0.1' });
      expect(result.camera.main).toEqual({
        url: publication.mainUrl,
        username: USERNAME,
        password: PASSWORD,
        video: { codec: 'h264', width: 1280, height: 720 },
        audioCodec: null,
      });
      expect(result.camera.sub).toEqual({
        url: publication.subUrl,
        username: USERNAME,
        password: PASSWORD,
        video: { codec: 'h264', width: 640, height: 360 },
      });
      expect(result.camera.motionSource).toBe('onvif');
      expect(result.camera.onvif).toEqual({
        host: '127.0.0.1',
        port: onvif.port,
        username: USERNAME,
        password: PASSWORD,
      });
      expect(result.camera.snapshotUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(jpegSize(result.firstFrame)).toEqual({ width: 1280, height: 720 });
    });

    it('answers wrong_credentials for a wrong ONVIF password', async () => {
      const err = await configurationFailure(
        configureCamera(
          { type: 'onvif', host: '127.0.0.1', port: onvif.port, username: USERNAME, password: 'wrong' },
          { policy, ...tools },
        ),
      );
      expect(err.code).toBe('wrong_credentials');
    });

    it('refuses stream addresses the camera answers outside CAMERA_NETWORKS', async () => {
      const elsewhere = await startOnvifSimulator({
        username: USERNAME,
        password: PASSWORD,
        rtspBase: 'rtsp://10.20.30.40:554',
      });
      try {
        const err = await configurationFailure(
          configureCamera(
            {
              type: 'onvif',
              host: '127.0.0.1',
              port: elsewhere.port,
              username: USERNAME,
              password: PASSWORD,
            },
            { policy: createNetworkPolicy('127.0.0.0/8'), ...tools },
          ),
        );
        expect(err.code).toBe('network_not_allowed');
      } finally {
        await elsewhere.close();
      }
    });

    it('answers timed_out when the device accepts requests and never answers', async () => {
      const hanging = await startOnvifSimulator({
        username: USERNAME,
        password: PASSWORD,
        rtspBase: `rtsp://127.0.0.1:${rtsp.port}`,
        neverAnswer: true,
      });
      try {
        const err = await configurationFailure(
          configureCamera(
            { type: 'onvif', host: '127.0.0.1', port: hanging.port, username: USERNAME, password: PASSWORD },
            { policy, ...tools, timeoutMs: 2_000 },
          ),
        );
        expect(err.code).toBe('timed_out');
      } finally {
        await hanging.close();
      }
    });
  });
});
