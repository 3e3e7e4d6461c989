/**
 * configureCamera with fake adapters (DNS, ONVIF reader, ffprobe, ffmpeg): the rules, without a network.
 * configure.test.ts runs the same paths against a real RTSP server and ONVIF simulator.
 */
import { describe, expect, it } from 'vitest';
import { configureCamera, type ConfigureOptions, type ReadOnvifCamera } from './configure.js';
import { createNetworkPolicy, DEFAULT_CAMERA_NETWORKS, type ResolvedAddress } from './networks.js';
import type { OnvifCameraInfo, OnvifStreamProfile, ReadOnvifCameraOptions } from './onvif.js';
import type { ProbeResult } from './rtsp-probe.js';
import { CameraConfigurationError, type StreamAddress } from './types.js';
import { configurationFailure } from './test-support.js';

/** A JPEG's start: SOI, then a SOF0 segment for 800x600 (all configuration reads of it). */
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01,
  0x03, 0x11, 0x01, 0xff, 0xd9,
]);
const H264: ProbeResult = { video: { codec: 'h264', width: 1920, height: 1080 }, audioCodec: 'aac' };
const H264_SUB: ProbeResult = { video: { codec: 'h264', width: 640, height: 360 }, audioCodec: null };

interface FakeOptions {
  dns?: Record<string, ResolvedAddress[]>;
  networks?: string;
  streams?: Record<string, ProbeResult | CameraConfigurationError | 'hang'>;
  onvif?: OnvifCameraInfo | Error | 'hang';
  lookupHangs?: boolean;
}

/** The fakes, and what each was asked. */
function fakes(opts: FakeOptions = {}) {
  const looked: string[] = [];
  const probed: StreamAddress[] = [];
  const grabbed: StreamAddress[] = [];
  const onvifCalls: ReadOnvifCameraOptions[] = [];
  const signals: AbortSignal[] = [];
  const never = new Promise<never>(() => undefined);

  const policy = createNetworkPolicy(opts.networks ?? DEFAULT_CAMERA_NETWORKS, {
    lookup: async (host) => {
      looked.push(host);
      if (opts.lookupHangs) return never;
      const answer = opts.dns?.[host];
      if (!answer) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return answer;
    },
  });
  const probe: NonNullable<ConfigureOptions['probe']> = async (address, o) => {
    probed.push(address);
    if (o.signal) signals.push(o.signal);
    const answer = opts.streams?.[address.url];
    if (answer === 'hang') return never;
    if (answer instanceof Error) throw answer;
    if (!answer) throw new CameraConfigurationError('unreachable', `no fake stream at ${address.url}`);
    return answer;
  };
  const grab: NonNullable<ConfigureOptions['grab']> = async (address) => {
    grabbed.push(address);
    return JPEG;
  };
  const onvif: ReadOnvifCamera = async (o) => {
    onvifCalls.push(o);
    if (o.signal) signals.push(o.signal);
    if (opts.onvif === 'hang') return never;
    if (opts.onvif instanceof Error) throw opts.onvif;
    if (!opts.onvif) throw new Error('no fake ONVIF camera');
    return opts.onvif;
  };
  return { options: { policy, probe, grab, onvif }, looked, probed, grabbed, onvifCalls, signals };
}

describe('configureCamera: RTSP', () => {
  it('connects to the address the name resolved to and answers the stream and the first frame', async () => {
    const f = fakes({
      dns: { 'cam.local': [{ address: '192.168.1.20', family: 4 }] },
      streams: { 'rtsp://192.168.1.20:554/stream1?ch=1': H264 },
    });
    const result = await configureCamera(
      { type: 'rtsp', url: 'rtsp://cam.local:554/stream1?ch=1', username: 'admin', password: 'pw' },
      f.options,
    );
    expect(f.looked).toEqual(['cam.local']);
    expect(f.probed).toEqual([
      { url: 'rtsp://192.168.1.20:554/stream1?ch=1', username: 'admin', password: 'pw' },
    ]);
    expect(f.grabbed).toEqual(f.probed);
    expect(result.firstFrame).toBe(JPEG);
    expect(result.camera).toEqual({
      main: {
        url: 'rtsp://192.168.1.20:554/stream1?ch=1',
        username: 'admin',
        password: 'pw',
        video: { codec: 'h264', width: 1920, height: 1080 },
        audioCodec: 'aac',
      },
      sub: null,
      snapshotUri: null,
      device: null,
      motionSource: 'frames',
      onvif: null,
    });
  });

  it('takes the size from the first frame when ffprobe could not tell it', async () => {
    const f = fakes({
      streams: {
        'rtsp://192.168.1.20/main': { video: { codec: 'h264', width: 0, height: 0 }, audioCodec: null },
      },
    });
    const result = await configureCamera({ type: 'rtsp', url: 'rtsp://192.168.1.20/main' }, f.options);
    expect(result.camera.main.video).toEqual({ codec: 'h264', width: 800, height: 600 });
  });

  it('takes a login typed into the URL and stores the URL without it', async () => {
    const f = fakes({ streams: { 'rtsp://192.168.1.20/live': H264 } });
    const result = await configureCamera(
      { type: 'rtsp', url: 'rtsp://ad%20min:p%40ss@192.168.1.20/live' },
      f.options,
    );
    expect(f.probed).toEqual([{ url: 'rtsp://192.168.1.20/live', username: 'ad min', password: 'p@ss' }]);
    expect(result.camera.main.url).toBe('rtsp://192.168.1.20/live');
  });

  it('works without a login', async () => {
    const f = fakes({ streams: { 'rtsp://[fd00::20]:8554/main': H264 } });
    const result = await configureCamera({ type: 'rtsp', url: 'rtsp://[FD00::20]:8554/main' }, f.options);
    expect(f.probed).toEqual([{ url: 'rtsp://[fd00::20]:8554/main' }]);
    expect(result.camera.main.username).toBeUndefined();
  });

  it('refuses an address outside the allowed networks before connecting to it', async () => {
    const f = fakes({ networks: '10.0.0.0/8', streams: { 'rtsp://127.0.0.1:8554/main': H264 } });
    const err = await configurationFailure(
      configureCamera({ type: 'rtsp', url: 'rtsp://127.0.0.1:8554/main' }, f.options),
    );
    expect(err.code).toBe('network_not_allowed');
    expect(f.probed).toEqual([]);
    expect(f.grabbed).toEqual([]);
  });

  it('refuses a name when one of its addresses is outside the allowed networks', async () => {
    const f = fakes({
      dns: {
        'cam.example': [
          { address: '192.168.1.20', family: 4 },
          { address: '203.0.113.7', family: 4 },
        ],
      },
    });
    const err = await configurationFailure(
      configureCamera({ type: 'rtsp', url: 'rtsp://cam.example/main' }, f.options),
    );
    expect(err.code).toBe('network_not_allowed');
    expect(f.probed).toEqual([]);
  });

  it('answers unreachable for a name that does not resolve', async () => {
    const f = fakes();
    expect(
      (
        await configurationFailure(
          configureCamera({ type: 'rtsp', url: 'rtsp://nowhere.local/x' }, f.options),
        )
      ).code,
    ).toBe('unreachable');
  });

  it('refuses a stream that is not H.264, or has no video, without grabbing a frame', async () => {
    const f = fakes({
      streams: {
        'rtsp://192.168.1.20/hevc': { video: { codec: 'hevc', width: 2560, height: 1440 }, audioCodec: null },
        'rtsp://192.168.1.20/audio': { video: null, audioCodec: 'pcm_alaw' },
      },
    });
    const hevc = await configurationFailure(
      configureCamera({ type: 'rtsp', url: 'rtsp://192.168.1.20/hevc' }, f.options),
    );
    expect(hevc.code).toBe('no_supported_stream');
    expect(hevc.message).toContain('hevc');
    const audio = await configurationFailure(
      configureCamera({ type: 'rtsp', url: 'rtsp://192.168.1.20/audio' }, f.options),
    );
    expect(audio.code).toBe('no_supported_stream');
    expect(f.grabbed).toEqual([]);
  });

  it("passes the probe's failure on (wrong_credentials)", async () => {
    const f = fakes({
      streams: { 'rtsp://192.168.1.20/main': new CameraConfigurationError('wrong_credentials', '401') },
    });
    const err = await configurationFailure(
      configureCamera(
        { type: 'rtsp', url: 'rtsp://192.168.1.20/main', username: 'a', password: 'b' },
        f.options,
      ),
    );
    expect(err.code).toBe('wrong_credentials');
  });

  it('answers timed_out when a step is still running at the deadline, and aborts it', async () => {
    const f = fakes({ streams: { 'rtsp://192.168.1.20/main': 'hang' } });
    const err = await configurationFailure(
      configureCamera({ type: 'rtsp', url: 'rtsp://192.168.1.20/main' }, { ...f.options, timeoutMs: 200 }),
    );
    expect(err.code).toBe('timed_out');
    expect(f.signals).toHaveLength(1);
    expect(f.signals[0]!.aborted).toBe(true);
  });

  it('answers timed_out when the name lookup outlasts the deadline', async () => {
    const f = fakes({ lookupHangs: true });
    const err = await configurationFailure(
      configureCamera({ type: 'rtsp', url: 'rtsp://slow.local/main' }, { ...f.options, timeoutMs: 200 }),
    );
    expect(err.code).toBe('timed_out');
    expect(f.probed).toEqual([]);
  });

  it("stops when the caller's signal aborts", async () => {
    const f = fakes({ streams: { 'rtsp://192.168.1.20/main': 'hang' } });
    const controller = new AbortController();
    const configuring = configureCamera(
      { type: 'rtsp', url: 'rtsp://192.168.1.20/main' },
      { ...f.options, signal: controller.signal },
    );
    while (f.probed.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect((await configurationFailure(configuring)).code).toBe('timed_out');
    expect(f.signals[0]!.aborted).toBe(true);
  });
});

function profile(uri: string, width = 1920, height = 1080): OnvifStreamProfile {
  return { token: `p${width}`, name: null, uri, video: { codec: 'h264', width, height }, fps: 25 };
}

describe('configureCamera: ONVIF', () => {
  const camera = {
    device: { manufacturer: 'Acme', model: 'Cam 2', firmware: '1.2.3', serial: 'SN1' },
    main: profile('rtsp://192.168.1.20:554/Streaming/101'),
    sub: profile('rtsp://192.168.1.20:554/Streaming/102', 640, 360),
    snapshotUri: 'http://192.168.1.20/onvif/snapshot?ch=1',
    motionEvents: true,
  } satisfies OnvifCameraInfo;
  const mainUrl = camera.main.uri;
  const subUrl = camera.sub.uri;
  const connection = { type: 'onvif', host: 'cam.local', username: 'admin', password: 'pw' } as const;
  const dns = { 'cam.local': [{ address: '192.168.1.20', family: 4 }] };

  it('reads the device, checks and probes main and sub with the ONVIF login, and grabs a frame', async () => {
    const f = fakes({
      dns,
      onvif: camera,
      streams: { [mainUrl]: H264, [subUrl]: H264_SUB },
    });
    const result = await configureCamera(connection, { ...f.options, timeoutMs: 20_000 });

    expect(f.onvifCalls).toHaveLength(1);
    expect(f.onvifCalls[0]).toMatchObject({
      host: '192.168.1.20',
      port: 80,
      username: 'admin',
      password: 'pw',
    });
    expect(f.onvifCalls[0]!.timeoutMs).toBeLessThanOrEqual(20_000);
    expect(f.onvifCalls[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(f.probed.map((p) => p.url).sort()).toEqual([mainUrl, subUrl]);
    expect(f.probed.every((p) => p.username === 'admin' && p.password === 'pw')).toBe(true);
    expect(f.grabbed.map((p) => p.url)).toEqual([mainUrl]);
    expect(result.firstFrame).toBe(JPEG);
    expect(result.camera).toEqual({
      main: { url: mainUrl, username: 'admin', password: 'pw', video: H264.video, audioCodec: 'aac' },
      sub: { url: subUrl, username: 'admin', password: 'pw', video: H264_SUB.video },
      snapshotUri: 'http://192.168.1.20/onvif/snapshot?ch=1',
      device: { manufacturer: 'Acme', model: 'Cam 2', firmware: '1.2.3' },
      motionSource: 'onvif',
      onvif: { host: '192.168.1.20', port: 80, username: 'admin', password: 'pw' },
    });
  });

  it("takes sizes from the camera's profiles when ffprobe could not tell them", async () => {
    const unsized = { video: { codec: 'h264', width: 0, height: 0 }, audioCodec: null };
    const f = fakes({ dns, onvif: camera, streams: { [mainUrl]: unsized, [subUrl]: unsized } });
    const result = await configureCamera(connection, f.options);
    expect(result.camera.main.video).toEqual({ codec: 'h264', width: 1920, height: 1080 });
    expect(result.camera.sub?.video).toEqual({ codec: 'h264', width: 640, height: 360 });
  });

  it('uses the given port, and frame differencing when the camera has no motion events', async () => {
    const f = fakes({
      onvif: { ...camera, sub: null, motionEvents: false, snapshotUri: null },
      streams: { [mainUrl]: H264 },
    });
    const result = await configureCamera({ ...connection, host: '192.168.1.20', port: 8080 }, f.options);
    expect(f.onvifCalls[0]!.port).toBe(8080);
    expect(result.camera.sub).toBeNull();
    expect(result.camera.motionSource).toBe('frames');
    expect(result.camera.onvif?.port).toBe(8080);
  });

  it('refuses a stream address the camera answers outside the allowed networks, without probing', async () => {
    const f = fakes({
      dns,
      onvif: { ...camera, sub: profile('rtsp://203.0.113.9/evil', 640, 360) },
      streams: { [mainUrl]: H264 },
    });
    const err = await configurationFailure(configureCamera(connection, f.options));
    expect(err.code).toBe('network_not_allowed');
    expect(f.probed).toEqual([]);
  });

  it('resolves a stream host name the camera answers, once, and connects to its address', async () => {
    const f = fakes({
      dns: { ...dns, 'cam-stream.local': [{ address: '192.168.1.21', family: 4 }] },
      onvif: { ...camera, main: profile('rtsp://user:old@cam-stream.local/main'), sub: null },
      streams: { 'rtsp://192.168.1.21/main': H264 },
    });
    const result = await configureCamera(connection, f.options);
    expect(result.camera.main).toMatchObject({
      url: 'rtsp://192.168.1.21/main',
      username: 'admin',
      password: 'pw',
    });
    expect(f.looked.filter((h) => h === 'cam-stream.local')).toHaveLength(1);
  });

  it('drops a snapshot address outside the allowed networks and configures the camera anyway', async () => {
    const f = fakes({
      dns,
      onvif: { ...camera, snapshotUri: 'http://169.254.169.254/latest/meta-data' },
      streams: { [mainUrl]: H264, [subUrl]: H264_SUB },
    });
    const result = await configureCamera(connection, f.options);
    expect(result.camera.snapshotUri).toBeNull();
  });

  it('records the sub stream when only it is H.264', async () => {
    const f = fakes({
      dns,
      onvif: camera,
      streams: {
        [mainUrl]: { video: { codec: 'hevc', width: 3840, height: 2160 }, audioCodec: 'aac' },
        [subUrl]: H264_SUB,
      },
    });
    const result = await configureCamera(connection, f.options);
    expect(result.camera.main).toMatchObject({ url: subUrl, video: H264_SUB.video });
    expect(result.camera.sub).toBeNull();
    expect(f.grabbed.map((p) => p.url)).toEqual([subUrl]);
  });

  it('keeps going without the sub stream when it cannot be probed', async () => {
    const f = fakes({
      dns,
      onvif: camera,
      streams: { [mainUrl]: H264, [subUrl]: new CameraConfigurationError('unreachable', '404') },
    });
    const result = await configureCamera(connection, f.options);
    expect(result.camera.sub).toBeNull();
    expect(result.camera.main.url).toBe(mainUrl);
  });

  it('answers no_supported_stream when neither stream is H.264', async () => {
    const mjpeg = { video: { codec: 'mjpeg', width: 640, height: 480 }, audioCodec: null };
    const f = fakes({
      dns,
      onvif: camera,
      streams: {
        [mainUrl]: { video: { codec: 'hevc', width: 1, height: 1 }, audioCodec: null },
        [subUrl]: mjpeg,
      },
    });
    expect((await configurationFailure(configureCamera(connection, f.options))).code).toBe(
      'no_supported_stream',
    );
    expect(f.grabbed).toEqual([]);
  });

  it("passes the main stream's failure on when no stream works", async () => {
    const f = fakes({
      dns,
      onvif: { ...camera, sub: null },
      streams: { [mainUrl]: new CameraConfigurationError('wrong_credentials') },
    });
    expect((await configurationFailure(configureCamera(connection, f.options))).code).toBe(
      'wrong_credentials',
    );
  });

  it.each([
    [new CameraConfigurationError('wrong_credentials', 'ONVIF NotAuthorized'), 'wrong_credentials'],
    [
      Object.assign(new Error('connect ECONNREFUSED 192.168.1.20:80'), { code: 'ECONNREFUSED' }),
      'unreachable',
    ],
    [Object.assign(new Error('socket hang up'), { code: 'ETIMEDOUT' }), 'timed_out'],
    [new Error('ter:NotAuthorized Sender not Authorized'), 'wrong_credentials'],
    [new Error('Unexpected end of XML'), 'invalid_response'],
  ] as const)('classifies an ONVIF failure (%s) as %s', async (error, code) => {
    const f = fakes({ dns, onvif: error });
    expect((await configurationFailure(configureCamera(connection, f.options))).code).toBe(code);
    expect(f.probed).toEqual([]);
  });

  it('refuses an ONVIF host outside the allowed networks before asking it anything', async () => {
    const f = fakes({ networks: '10.0.0.0/8', onvif: camera });
    const err = await configurationFailure(configureCamera({ ...connection, host: '127.0.0.1' }, f.options));
    expect(err.code).toBe('network_not_allowed');
    expect(f.onvifCalls).toEqual([]);
  });

  it('answers timed_out when the camera does not answer ONVIF in time, and aborts the request', async () => {
    const f = fakes({ dns, onvif: 'hang' });
    const err = await configurationFailure(configureCamera(connection, { ...f.options, timeoutMs: 200 }));
    expect(err.code).toBe('timed_out');
    expect(f.onvifCalls[0]!.signal?.aborted).toBe(true);
  });
});
