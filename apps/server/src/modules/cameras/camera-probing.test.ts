import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { CameraStateChange } from '../../platform/events.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';

/**
 * A camera address cannot be used to probe the server: with the default CAMERA_NETWORKS its loopback ports,
 * its own addresses and the cloud metadata service are refused before anything connects, and where the
 * operator does allow loopback, a closed port and a port with something else behind it answer alike.
 */

/** A TCP listener on 127.0.0.1 that counts its connections and answers each with `reply`, if any. */
async function listener(
  reply?: string,
): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (reply) socket.once('data', () => socket.end(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: one a listener had a moment ago. */
async function closedPort(): Promise<number> {
  const l = await listener();
  await l.close();
  return l.port;
}

const ownNonLoopback = () =>
  Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((i) => !i.internal && i.family === 'IPv4')
    .map((i) => i.address);

describe('camera addresses with the default CAMERA_NETWORKS', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUp(t);
  }, 60_000);
  afterAll(async () => t.close());

  const add = (name: string, connection: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/cameras',
      headers: owner.auth,
      payload: { name, connection },
    });

  it("refuses the server's loopback ports with 400 before anything connects, storing nothing", async () => {
    const open = await listener('RTSP/1.0 200 OK\r\nCSeq: 1\r\n\r\n');
    try {
      const addresses = [
        `rtsp://127.0.0.1:${open.port}/stream`,
        `rtsp://127.0.0.2:${open.port}/stream`,
        `rtsp://[::1]:${open.port}/stream`,
        `rtsp://[::ffff:127.0.0.1]:${open.port}/stream`,
        `rtsp://0.0.0.0:${open.port}/stream`,
        `rtsp://localhost:${open.port}/stream`,
      ];
      for (const [i, url] of addresses.entries()) {
        const res = await add(`Probe ${i}`, { type: 'rtsp', url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({ code: 'camera.network_not_allowed' });
      }
      const onvif = await add('Probe onvif', { type: 'onvif', host: '127.0.0.1', port: open.port });
      expect(onvif.statusCode).toBe(400);
      expect(open.connections()).toBe(0);
      const list = await t.app.inject({ method: 'GET', url: '/api/users/cameras', headers: owner.auth });
      expect(JSON.stringify(list.json())).not.toContain('Probe');
    } finally {
      await open.close();
    }
  });

  it("refuses the server's own addresses and the cloud metadata service", async () => {
    const addresses = [
      ...ownNonLoopback().map((a) => `rtsp://${a}:554/stream`),
      'rtsp://169.254.169.254/latest',
      'rtsp://169.254.1.1/stream',
      'rtsp://[fd00:ec2::254]/latest',
      'rtsp://[fe80::1]/stream',
    ];
    for (const url of addresses) {
      const res = await add('Probe', { type: 'rtsp', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'camera.network_not_allowed' });
    }
  });
});

describe('camera addresses on loopback when the operator lists it', () => {
  let t: TestApp;
  let owner: TestUser;
  const failed = new Map<string, (c: CameraStateChange) => void>();
  beforeAll(async () => {
    t = await createTestApp({ env: { CAMERA_NETWORKS: '127.0.0.0/8' } });
    owner = await signUp(t);
    t.deps.events.on('cameras.changed', ({ camera }) => {
      if (camera?.configuration_status === 'failed') failed.get(camera.name)?.(camera);
    });
  }, 60_000);
  afterAll(async () => t.close());

  /** Adds an RTSP camera and resolves with what its failed configuration tells the owner. */
  async function configurationFailure(name: string, url: string) {
    const settled = new Promise<CameraStateChange>((resolve) => failed.set(name, resolve));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/cameras',
      headers: owner.auth,
      payload: { name, connection: { type: 'rtsp', url } },
    });
    expect(res.statusCode, res.body).toBe(201);
    await settled;
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/users/cameras/${encodeURIComponent(name)}`,
      headers: owner.auth,
    });
    const { configuration_error, configuration_error_code } = detail.json<{
      data: { configuration_error: string; configuration_error_code: string };
    }>().data;
    return { configuration_error, configuration_error_code };
  }

  it('answers a closed port and a port where no camera answers in the same words', async () => {
    const web = await listener('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    try {
      const closed = await configurationFailure('Closed', `rtsp://127.0.0.1:${await closedPort()}/stream`);
      const notACamera = await configurationFailure('Web server', `rtsp://127.0.0.1:${web.port}/stream`);
      expect(web.connections()).toBeGreaterThan(0);
      expect(closed).toEqual({
        configuration_error_code: 'unreachable',
        configuration_error: expect.stringContaining('could not be reached'),
      });
      expect(notACamera).toEqual(closed);
    } finally {
      await web.close();
    }
  }, 90_000);
});
