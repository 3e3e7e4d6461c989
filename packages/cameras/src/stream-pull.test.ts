import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InitSegment } from './mp4.js';
import { audioArgs, createStreamPull, rtspInputArgs, streamUrl, type StreamPull } from './stream-pull.js';
import { maskSecrets } from './supervised-process.js';
import { childFfmpegs, ffmpeg, ffmpegPath, fixture, memoryLog, tempDir, waitFor } from './test-media.js';
import { mainAndSub, startRtspServer } from './testing/index.js';
import type { Fragment, StreamStatus } from './types.js';

describe('the camera URL', () => {
  it('carries the login URL-encoded, replacing any login already in it', () => {
    expect(
      streamUrl({ url: 'rtsp://10.0.0.5:554/stream1', username: 'admin', password: 'p@ss:w/rd#1' }),
    ).toBe('rtsp://admin:p%40ss%3Aw%2Frd%231@10.0.0.5:554/stream1');
    expect(streamUrl({ url: 'rtsp://old:login@cam.local/s', username: 'new user' })).toBe(
      'rtsp://new%20user@cam.local/s',
    );
    expect(streamUrl({ url: 'rtsp://cam.local/s' })).toBe('rtsp://cam.local/s');
  });

  it('is never logged with its login', () => {
    const text = "Input #0, rtsp, from 'rtsp://admin:p%40ss@10.0.0.5/s': 401 Unauthorized for p@ss";
    const masked = maskSecrets(text, ['p@ss']);
    expect(masked).not.toContain('p%40ss');
    expect(masked).not.toContain('p@ss');
    expect(masked).toContain('rtsp://***@10.0.0.5/s');
  });

  it('asks for RTP over TCP by default, UDP on request, or TCP first with a UDP fallback', () => {
    const address = { url: 'rtsp://cam/s' };
    expect(rtspInputArgs(address)).toEqual([
      '-rtsp_transport',
      'tcp',
      '-fflags',
      'nobuffer',
      '-flags',
      'low_delay',
      '-i',
      'rtsp://cam/s',
    ]);
    expect(rtspInputArgs(address, 'udp').slice(0, 2)).toEqual(['-rtsp_transport', 'udp']);
    expect(rtspInputArgs(address, 'auto').slice(0, 2)).toEqual(['-rtsp_flags', 'prefer_tcp']);
  });

  it('copies AAC, transcodes other audio to AAC mono, and drops none', () => {
    expect(audioArgs(null)).toEqual(['-an']);
    expect(audioArgs('aac')).toEqual(['-map', '0:a:0?', '-c:a', 'copy']);
    expect(audioArgs('pcm_mulaw')).toEqual(['-map', '0:a:0?', '-c:a', 'aac', '-ac', '1', '-b:a', '64k']);
  });
});

function collect(pull: StreamPull) {
  const inits: InitSegment[] = [];
  const fragments: Fragment[] = [];
  const statuses: { status: StreamStatus; reason: string | undefined }[] = [];
  pull.on('init', (init) => inits.push(init));
  pull.on('fragment', (fragment) => fragments.push(fragment));
  pull.on('status', (status, reason) => statuses.push({ status, reason }));
  return { inits, fragments, statuses };
}

describe('pulling a stream', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let pull: StreamPull | undefined;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await pull?.stop();
    pull = undefined;
  });
  afterAll(() => dir.remove());

  it('emits the init segment, then fragments starting at a keyframe, H.264 copied', async () => {
    const log = memoryLog();
    pull = createStreamPull({
      ffmpegPath,
      log,
      inputArgs: ['-re', '-stream_loop', '-1', '-i', fixture('clip-car.mp4')],
    });
    const seen = collect(pull);
    pull.start();
    expect(pull.status()).toBe('connecting');
    await waitFor<Fragment>(
      (fn) => pull!.on('fragment', fn),
      (f) => f.sequence >= 15,
    );
    expect(pull.status()).toBe('streaming');
    expect(seen.inits).toHaveLength(1);
    expect(seen.inits[0]!.mimeType).toMatch(/^video\/mp4; codecs="avc1\.42[0-9a-f]{2}16"$/);
    expect(pull.init()).toBe(seen.inits[0]);
    expect(seen.fragments[0]!.keyframe).toBe(true);
    // One fragment per frame at 12.5 fps.
    expect(seen.fragments[3]!.durationMs).toBeCloseTo(80, 5);
    expect(seen.statuses.map((s) => s.status)).toEqual(['connecting', 'streaming']);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('stops: ffmpeg has exited when stop() resolves', async () => {
    pull = createStreamPull({
      ffmpegPath,
      log: memoryLog(),
      inputArgs: ['-re', '-stream_loop', '-1', '-i', fixture('clip-car.mp4')],
    });
    pull.start();
    await waitFor<Fragment>((fn) => pull!.on('fragment', fn));
    expect(childFfmpegs().length).toBeGreaterThanOrEqual(1);
    await pull.stop();
    expect(childFfmpegs()).toEqual([]);
  });

  it('reconnects when the stream ends, with a reason, and sends a new init segment', async () => {
    const short = `${dir.path}/short.mp4`;
    await ffmpeg(['-i', fixture('clip-car.mp4'), '-t', '1.5', '-c', 'copy', short]);
    const log = memoryLog();
    pull = createStreamPull({
      ffmpegPath,
      log,
      inputArgs: ['-re', '-i', short],
      backoff: { initialMs: 200 },
    });
    const seen = collect(pull);
    pull.start();
    await waitFor<StreamStatus>(
      (fn) => pull!.on('status', fn),
      () => seen.statuses.length >= 4,
    );
    await pull.stop();
    const statuses = seen.statuses.map((s) => s.status);
    expect(statuses.slice(0, 4)).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming']);
    expect(seen.statuses[2]!.reason).toMatch(/ffmpeg exited \(code 0\)/);
    expect(seen.inits).toHaveLength(2);
    expect(seen.fragments.filter((f) => f.sequence === 0)).toHaveLength(2);
    expect(log.lines.some((l) => l.level === 'warn' && l.obj.reason === seen.statuses[2]!.reason)).toBe(true);
  });

  it('restarts ffmpeg when the camera goes silent', async () => {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      pull = createStreamPull({
        ffmpegPath,
        log: memoryLog(),
        inputArgs: ['-f', 'mpegts', '-i', `tcp://127.0.0.1:${port}`],
        stallMs: 1000,
        backoff: { initialMs: 100 },
      });
      const seen = collect(pull);
      pull.start();
      await waitFor<StreamStatus>(
        (fn) => pull!.on('status', fn),
        (s) => s === 'reconnecting',
      );
      expect(seen.statuses.at(-1)!.reason).toBe('no data for 1 s');
      // It tries again: a second connection arrives.
      await new Promise<void>((resolve) => {
        const check = () => (sockets.size >= 2 ? resolve() : setTimeout(check, 50));
        check();
      });
    } finally {
      await pull?.stop();
      pull = undefined;
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('transcodes G.711 audio to AAC so browsers can play it', async () => {
    const withMulaw = `${dir.path}/mulaw.mkv`;
    // prettier-ignore
    await ffmpeg([
      '-i', fixture('clip-car.mp4'), '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000',
      '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'pcm_mulaw', '-t', '4', withMulaw,
    ]);
    pull = createStreamPull({
      ffmpegPath,
      log: memoryLog(),
      audioCodec: 'pcm_mulaw',
      inputArgs: ['-re', '-i', withMulaw],
    });
    pull.start();
    const init = await waitFor<InitSegment>((fn) => pull!.on('init', fn));
    expect(init.mimeType).toMatch(/codecs="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  });

  it('pulls a camera over RTSP with its login, and reconnects when the camera drops it', async () => {
    const login = { username: 'viewer', password: 'p@ss:w/rd%1' };
    const server = await startRtspServer({ auth: login });
    const camera = await mainAndSub(server, 'still');
    const log = memoryLog();
    try {
      pull = createStreamPull({
        ffmpegPath,
        log,
        address: { url: server.url('/main'), ...login },
        backoff: { initialMs: 200 },
      });
      const seen = collect(pull);
      pull.start();
      await waitFor<Fragment>(
        (fn) => pull!.on('fragment', fn),
        (f) => f.keyframe,
      );
      expect(seen.inits[0]!.tracks[0]).toMatchObject({ kind: 'video', width: 1280, height: 720 });
      server.dropPlayers('/main');
      await waitFor<StreamStatus>(
        (fn) => pull!.on('status', fn),
        () => seen.statuses.length >= 4,
      );
      expect(seen.statuses.map((s) => s.status)).toEqual([
        'connecting',
        'streaming',
        'reconnecting',
        'streaming',
      ]);
      expect(seen.inits).toHaveLength(2);
      await pull.stop();
      const logged = JSON.stringify([log.lines, seen.statuses]);
      expect(logged).not.toContain('p@ss');
      expect(logged).not.toContain(encodeURIComponent('p@ss'));
    } finally {
      await camera.stop();
      await server.close();
    }
  });

  it('plays with TCP preferred over UDP (prefer_tcp)', async () => {
    const server = await startRtspServer();
    const camera = await mainAndSub(server, 'still');
    try {
      pull = createStreamPull({
        ffmpegPath,
        log: memoryLog(),
        address: { url: server.url('/sub') },
        transport: 'auto',
      });
      pull.start();
      const init = await waitFor<InitSegment>((fn) => pull!.on('init', fn));
      expect(init.tracks[0]).toMatchObject({ width: 640, height: 360 });
      await pull.stop();
    } finally {
      await camera.stop();
      await server.close();
    }
  });
});
