import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveViewer } from './live-hub.js';
import { createCameraSupervisor, type CameraSupervisor } from './supervisor.js';
import {
  childFfmpegCommands,
  childFfmpegs,
  ffmpegPath,
  fixture,
  memoryLog,
  personStream,
  probe,
  stillStream,
  tempDir,
  waitFor,
} from './test-media.js';
import { mainAndSub, startRtspServer } from './testing/index.js';
import type { ConfiguredCamera, MotionClip, MotionEventSource, StreamStatus } from './types.js';

const camera: ConfiguredCamera = {
  main: {
    url: 'rtsp://camera.invalid/main',
    username: 'admin',
    password: 'hunter2-secret',
    video: { codec: 'h264', width: 768, height: 432 },
    audioCodec: null,
  },
  sub: null,
  snapshotUri: null,
  device: null,
  motionSource: 'frames',
  onvif: null,
};

interface Seen {
  statuses: { status: StreamStatus; reason: string | undefined }[];
  snapshots: { jpeg: Buffer; at: Date }[];
  motionStarts: { jpeg: Buffer | null; at: Date }[];
  clips: MotionClip[];
}

function watch(supervisor: CameraSupervisor): Seen {
  const seen: Seen = { statuses: [], snapshots: [], motionStarts: [], clips: [] };
  supervisor.on('status', (status, reason) => seen.statuses.push({ status, reason }));
  supervisor.on('snapshot', (jpeg, at) => seen.snapshots.push({ jpeg, at }));
  supervisor.on('motionStart', (jpeg, at) => seen.motionStarts.push({ jpeg, at }));
  supervisor.on('clip', (clip) => seen.clips.push(clip));
  return seen;
}

function isJpeg(data: Buffer | null | undefined): boolean {
  return !!data && data[0] === 0xff && data[1] === 0xd8;
}

describe('a camera supervisor', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let supervisor: CameraSupervisor | undefined;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await supervisor?.stop();
    supervisor = undefined;
  });
  afterAll(() => dir.remove());

  it('turns a person walking in into one alert snapshot and one clip that covers the motion', async () => {
    const stream = await personStream(dir.path, 3, 30);
    const log = memoryLog();
    supervisor = createCameraSupervisor({
      ffmpegPath,
      camera,
      sensitivity: 5,
      tmpDir: dir.path,
      log,
      inputArgs: { main: ['-re', '-i', stream] },
    });
    const seen = watch(supervisor);
    supervisor.start();
    const clip = await waitFor<MotionClip>(
      (fn) => supervisor!.on('clip', fn),
      () => true,
      110_000,
    );
    await supervisor.stop();

    expect(seen.motionStarts).toHaveLength(1);
    const motion = seen.motionStarts[0]!;
    expect(isJpeg(motion.jpeg)).toBe(true);
    expect(seen.snapshots.length).toBeGreaterThanOrEqual(1);
    expect(isJpeg(seen.snapshots[0]!.jpeg)).toBe(true);

    // Pre-event seconds before the alert, and the motion after it.
    expect(clip.startedAt.getTime()).toBeLessThanOrEqual(motion.at.getTime() - 2500);
    expect(clip.endedAt.getTime()).toBeGreaterThan(motion.at.getTime() + 4000);
    const info = probe(clip.path);
    const seconds = Number(info.format!.duration);
    expect(seconds).toBeGreaterThan(7);
    expect(Math.abs(seconds - (clip.endedAt.getTime() - clip.startedAt.getTime()) / 1000)).toBeLessThan(1.5);
    expect(info.streams![0]).toMatchObject({ codec_name: 'h264', width: 768, height: 432 });
    expect((await readFile(clip.path)).indexOf('moov')).toBeLessThan(
      (await readFile(clip.path)).indexOf('mdat'),
    );

    expect(childFfmpegs()).toEqual([]);
    expect(JSON.stringify(log.lines)).not.toContain('hunter2');
  }, 120_000);

  it('stays quiet on a still scene, keeps snapshots coming, and comes back after the stream drops', async () => {
    const still = await stillStream(fixture('empty-driveway.jpg'), 6, `${dir.path}/driveway.mp4`);
    supervisor = createCameraSupervisor({
      ffmpegPath,
      camera,
      sensitivity: 10,
      tmpDir: dir.path,
      log: memoryLog(),
      inputArgs: { main: ['-re', '-i', still] },
      backoff: { initialMs: 200 },
    });
    const seen = watch(supervisor);
    const messages: (Buffer | string)[] = [];
    const viewer: LiveViewer = {
      send: (data) => void messages.push(data),
      bufferedAmount: () => 0,
      close: () => {},
    };
    supervisor.live.hub.join(viewer);
    supervisor.start();
    // The file ends after 6 s, like a camera dropping off; the pull reconnects and streams again.
    await waitFor<StreamStatus>(
      (fn) => supervisor!.on('status', fn),
      () => seen.statuses.length >= 4,
      110_000,
    );
    await supervisor.stop();

    expect(seen.statuses.map((s) => s.status)).toEqual([
      'connecting',
      'streaming',
      'reconnecting',
      'streaming',
    ]);
    expect(seen.statuses[2]!.reason).toMatch(/ffmpeg exited/);
    expect(seen.motionStarts).toEqual([]);
    expect(seen.clips).toEqual([]);
    expect(seen.snapshots.length).toBeGreaterThanOrEqual(1);
    expect(supervisor.live.mimeType()).toMatch(/^video\/mp4; codecs="avc1\./);
    expect(supervisor.live.hls.playlist()).toMatch(/^#EXTM3U\n/);
    const texts = messages
      .filter((m): m is string => typeof m === 'string')
      .map((m) => JSON.parse(m) as object);
    expect(texts.filter((m) => 'type' in m && m.type === 'init')).toHaveLength(2);
    expect(texts).toContainEqual({ type: 'status', stream_status: 'reconnecting' });
    expect(childFfmpegs()).toEqual([]);
  }, 120_000);

  it("uses the camera's own motion events without decoding frames, and cuts long motion into consecutive clips", async () => {
    const still = await stillStream(fixture('empty-landscape.jpg'), 4, `${dir.path}/landscape.mp4`);
    let report: ((moving: boolean) => void) | undefined;
    const events: MotionEventSource = {
      start: (onMotion) => void (report = onMotion),
      stop: async () => void (report = undefined),
    };
    supervisor = createCameraSupervisor({
      ffmpegPath,
      camera: { ...camera, motionSource: 'onvif' },
      sensitivity: 5,
      tmpDir: dir.path,
      log: memoryLog(),
      motionEvents: events,
      maxClipSeconds: 2,
      preEventSeconds: 1,
      tailSeconds: 1,
      inputArgs: { main: ['-re', '-stream_loop', '-1', '-i', still] },
    });
    const seen = watch(supervisor);
    supervisor.start();
    await waitFor<Buffer>((fn) => supervisor!.on('snapshot', (jpeg) => fn(jpeg)));
    expect(childFfmpegCommands().filter((c) => c.includes('rawvideo'))).toEqual([]);
    report!(true);
    await waitFor<MotionClip>(
      (fn) => supervisor!.on('clip', fn),
      () => seen.clips.length >= 2,
      110_000,
    );
    report!(false);
    await waitFor<MotionClip>(
      (fn) => supervisor!.on('clip', fn),
      () => seen.clips.length >= 3,
      110_000,
    );
    await supervisor.stop();

    expect(seen.motionStarts).toHaveLength(1);
    expect(isJpeg(seen.motionStarts[0]!.jpeg)).toBe(true);
    const [first, second] = seen.clips;
    expect(Number(probe(first!.path).format!.duration)).toBeLessThanOrEqual(2.2);
    expect(Number(probe(second!.path).format!.duration)).toBeLessThanOrEqual(2.2);
    // One keyframe interval (100 ms frames) apart at most: no gap, no overlap.
    expect(second!.startedAt.getTime()).toBeGreaterThanOrEqual(first!.endedAt.getTime());
    expect(second!.startedAt.getTime() - first!.endedAt.getTime()).toBeLessThan(500);
    for (const clip of seen.clips) expect(existsSync(clip.path)).toBe(true);
    expect(childFfmpegs()).toEqual([]);
  }, 120_000);

  it('records the main stream and watches the sub stream of an RTSP camera', async () => {
    const login = { username: 'admin', password: 'hunter2-secret' };
    const server = await startRtspServer({ auth: login });
    const publication = await mainAndSub(server, 'person-walks-in');
    try {
      supervisor = createCameraSupervisor({
        ffmpegPath,
        camera: {
          ...camera,
          main: {
            ...camera.main,
            ...login,
            url: server.url('/main'),
            video: { codec: 'h264', width: 1280, height: 720 },
          },
          sub: { ...login, url: server.url('/sub'), video: { codec: 'h264', width: 640, height: 360 } },
        },
        sensitivity: 5,
        tmpDir: dir.path,
        log: memoryLog(),
      });
      const seen = watch(supervisor);
      let alertsBeforeClip = -1;
      supervisor.on('clip', () => (alertsBeforeClip = seen.motionStarts.length));
      supervisor.start();
      const clip = await waitFor<MotionClip>(
        (fn) => supervisor!.on('clip', fn),
        () => true,
        110_000,
      );
      await supervisor.stop();

      expect(alertsBeforeClip).toBe(1);
      expect(isJpeg(seen.motionStarts[0]!.jpeg)).toBe(true);
      const info = probe(clip.path);
      expect(info.streams![0]).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
      expect(Number(info.format!.duration)).toBeGreaterThan(5);
      // Only the publisher (the camera's side) is left.
      expect(childFfmpegCommands().filter((c) => !c.includes('-f rtsp'))).toEqual([]);
    } finally {
      await publication.stop();
      await server.close();
    }
  }, 120_000);
});
