import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOnvifMotionEvents, motionFromNotification, readOnvifCamera } from './onvif.js';
import {
  mainAndSub,
  startOnvifSimulator,
  startRtspServer,
  type OnvifSimulator,
  type OnvifSimulatorOptions,
} from './testing/index.js';
import type { CameraConfigurationError } from './types.js';
import { configurationFailure } from './test-support.js';

const login = { username: 'admin', password: 'correct horse' };
const running: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((peer) => peer.close()));
});

async function simulator(options: Partial<OnvifSimulatorOptions> = {}): Promise<OnvifSimulator> {
  const sim = await startOnvifSimulator({ ...login, rtspBase: 'rtsp://127.0.0.1:8554', ...options });
  running.push(sim);
  return sim;
}

async function httpServer(handler: Parameters<typeof createServer>[1]): Promise<Server & { port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}

/** Resolves with the next values `onMotion` reports. */
function motionRecorder() {
  const seen: boolean[] = [];
  const errors: Error[] = [];
  let waiter: { count: number; resolve: () => void } | null = null;
  return {
    seen,
    errors,
    onMotion: (moving: boolean) => {
      seen.push(moving);
      if (waiter && seen.length >= waiter.count) waiter.resolve();
    },
    onError: (err: Error) => {
      errors.push(err);
      if (waiter) waiter.resolve();
    },
    until: (count: number) =>
      new Promise<void>((resolve) => {
        if (seen.length >= count) return resolve();
        waiter = { count, resolve };
      }),
  };
}

describe('readOnvifCamera', () => {
  it('reads the device, picks the largest H.264 profile as main and the smaller one as sub', async () => {
    const sim = await simulator({ manufacturer: 'Acme', model: 'Dome 4' });
    const info = await readOnvifCamera({ host: sim.host, port: sim.port, ...login, timeoutMs: 20_000 });

    expect(info.device).toEqual({
      manufacturer: 'Acme',
      model: 'Dome 4',
      firmware: 'V1.0.0 build 20260101',
      serial: 'SIM-0001',
    });
    expect(info.main).toMatchObject({
      token: 'main',
      uri: 'rtsp://127.0.0.1:8554/main',
      video: { codec: 'h264', width: 1280, height: 720 },
    });
    expect(info.sub).toMatchObject({
      token: 'sub',
      uri: 'rtsp://127.0.0.1:8554/sub',
      video: { codec: 'h264', width: 640, height: 360 },
    });
    expect(info.snapshotUri).toBe(`http://127.0.0.1:${sim.port}/onvif/snapshot.jpg`);
    expect(info.motionEvents).toBe(true);
    // The check subscription is not left behind on the camera.
    expect(sim.subscriptions()).toBe(0);
    const operations = sim.requests().map((r) => r.operation);
    expect(operations[0]).toBe('GetSystemDateAndTime');
    expect(operations).toContain('Unsubscribe');
    expect(
      sim
        .requests()
        .filter((r) => r.operation !== 'GetSystemDateAndTime')
        .every((r) => r.authenticated),
    ).toBe(true);
  });

  it('says a camera without an events service has no motion events', async () => {
    const sim = await simulator({ motionEvents: false });
    const info = await readOnvifCamera({ host: sim.host, port: sim.port, ...login });
    expect(info.motionEvents).toBe(false);
  });

  it('answers no sub stream for a camera with one H.264 profile, ignoring its H.265 one', async () => {
    const sim = await simulator({
      profiles: [
        { token: 'hevc', name: 'Main', encoding: 'H265', width: 3840, height: 2160, path: '/4k' },
        { token: 'avc', name: 'Second', encoding: 'H264', width: 1920, height: 1080, path: '/hd' },
      ],
    });
    const info = await readOnvifCamera({ host: sim.host, port: sim.port, ...login });
    expect(info.main).toMatchObject({ token: 'avc', uri: 'rtsp://127.0.0.1:8554/hd' });
    expect(info.sub).toBeNull();
  });

  it('fails with no_supported_stream when no profile is H.264', async () => {
    const sim = await simulator({
      profiles: [{ token: 'hevc', name: 'Main', encoding: 'H265', width: 1920, height: 1080, path: '/main' }],
    });
    const err = await configurationFailure(readOnvifCamera({ host: sim.host, port: sim.port, ...login }));
    expect(err.code).toBe('no_supported_stream');
  });

  it.each([400, 401] as const)(
    'fails with wrong_credentials on a wrong password (HTTP %i fault)',
    async (status) => {
      const sim = await simulator({ authFailureStatus: status });
      const err = await configurationFailure(
        readOnvifCamera({ host: sim.host, port: sim.port, username: 'admin', password: 'wrong' }),
      );
      expect(err.code).toBe('wrong_credentials');
    },
  );

  it('fails with unreachable when nothing listens', async () => {
    const server = await httpServer(() => undefined);
    const port = server.port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await configurationFailure(readOnvifCamera({ host: '127.0.0.1', port, ...login }));
    expect(err.code).toBe('unreachable');
  });

  it('fails with timed_out when the device never answers', async () => {
    const sim = await simulator({ neverAnswer: true });
    const err = await configurationFailure(
      readOnvifCamera({ host: sim.host, port: sim.port, ...login, timeoutMs: 500 }),
    );
    expect(err.code).toBe('timed_out');
  });

  it('fails with invalid_response when the port speaks HTTP but not SOAP', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Router login</body></html>');
    });
    const err = await configurationFailure(
      readOnvifCamera({ host: '127.0.0.1', port: server.port, ...login }),
    );
    expect(err.code).toBe('invalid_response');
  });

  it('stops when the caller aborts', async () => {
    const sim = await simulator({ neverAnswer: true });
    const controller = new AbortController();
    const reading = readOnvifCamera({ host: sim.host, port: sim.port, ...login, signal: controller.signal });
    controller.abort(new Error('owner cancelled'));
    await expect(reading).rejects.toThrow('owner cancelled');
  });
});

describe('readOnvifCamera with the test RTSP server', () => {
  it('answers stream URIs that play with the camera login, and a snapshot', async () => {
    const rtsp = await startRtspServer({ auth: { ...login } });
    running.push(rtsp);
    const publication = await mainAndSub(rtsp, 'still');
    running.push({ close: () => publication.stop() });
    const sim = await simulator({ rtspBase: `rtsp://127.0.0.1:${rtsp.port}` });

    const info = await readOnvifCamera({ host: sim.host, port: sim.port, ...login });
    const withLogin = (uri: string) =>
      uri.replace('rtsp://', `rtsp://${login.username}:${encodeURIComponent(login.password)}@`);
    const ffmpegPath = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const played = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        ffmpegPath,
        [
          '-rtsp_transport',
          'tcp',
          '-i',
          withLogin(info.sub!.uri),
          '-frames:v',
          '3',
          '-c',
          'copy',
          '-f',
          'null',
          '-',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(played.code, played.stderr).toBe(0);
    expect(played.stderr).toMatch(/640x360/);

    const snapshot = await fetch(info.snapshotUri!);
    expect(snapshot.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await snapshot.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });
});

describe('createOnvifMotionEvents', () => {
  it('reports motion starting and ending, and unsubscribes on stop', async () => {
    const sim = await simulator();
    const events = createOnvifMotionEvents({ host: sim.host, port: sim.port, ...login });
    const recorder = motionRecorder();
    events.start(recorder.onMotion, recorder.onError);

    // The camera's initial state (no motion) comes first.
    await recorder.until(1);
    expect(recorder.seen).toEqual([false]);
    sim.setMotion(true);
    await recorder.until(2);
    sim.setMotion(false);
    await recorder.until(3);
    expect(recorder.seen).toEqual([false, true, false]);
    expect(recorder.errors).toEqual([]);

    await events.stop();
    expect(sim.subscriptions()).toBe(0);
    expect(sim.requests().map((r) => r.operation)).toContain('Unsubscribe');
  });

  it('reports a wrong login to onError', async () => {
    const sim = await simulator();
    const events = createOnvifMotionEvents({
      host: sim.host,
      port: sim.port,
      username: 'admin',
      password: 'no',
    });
    const recorder = motionRecorder();
    const firstError = new Promise<void>((resolve) => {
      events.start(recorder.onMotion, (err) => {
        recorder.onError(err);
        resolve();
      });
    });
    await firstError;
    expect((recorder.errors[0] as CameraConfigurationError).code).toBe('wrong_credentials');
    await events.stop();
    expect(recorder.seen).toEqual([]);
  });

  it('subscribes again after the camera forgot its subscription', async () => {
    const sim = await simulator();
    const events = createOnvifMotionEvents({ host: sim.host, port: sim.port, ...login });
    const recorder = motionRecorder();
    events.start(recorder.onMotion, recorder.onError);
    await recorder.until(1);
    // As after a camera restart: the next PullMessages gets a fault for the unknown subscription.
    sim.dropSubscriptions();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (recorder.errors.length > 0 && sim.subscriptions() > 0) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    sim.setMotion(true);
    await recorder.until(2);
    expect(recorder.seen).toEqual([false, true]);
    expect(sim.requests().filter((r) => r.operation === 'CreatePullPointSubscription').length).toBe(2);
    await events.stop();
  });
});

describe('motionFromNotification', () => {
  const message = (topic: string, items: Array<[string, unknown]>) => ({
    topic: { _: topic },
    message: { message: { data: { simpleItem: items.map(([Name, Value]) => ({ $: { Name, Value } })) } } },
  });

  it('reads the common motion topics', () => {
    expect(
      motionFromNotification(message('tns1:RuleEngine/CellMotionDetector/Motion', [['IsMotion', true]])),
    ).toBe(true);
    expect(motionFromNotification(message('tns1:VideoSource/MotionAlarm', [['State', false]]))).toBe(false);
    expect(
      motionFromNotification(message('tns1:RuleEngine/MyRuleDetector/Motion', [['Active', 'true']])),
    ).toBe(true);
  });

  it('ignores other topics', () => {
    expect(
      motionFromNotification(message('tns1:Device/Trigger/DigitalInput', [['LogicalState', true]])),
    ).toBeNull();
    expect(motionFromNotification({})).toBeNull();
  });
});
