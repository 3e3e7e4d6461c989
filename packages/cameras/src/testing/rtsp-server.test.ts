import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { mainAndSub, publishScene, type Publication } from './publisher.js';
import { startRtspServer, type RtspServerOptions, type RtspTestServer } from './rtsp-server.js';

const ffmpegPath = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const login = { username: 'viewer', password: 's3cret:pw' };

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function server(options: RtspServerOptions = {}): Promise<RtspTestServer> {
  const started = await startRtspServer(options);
  cleanup.push(() => started.close());
  return started;
}

async function publish(target: RtspTestServer, scene: Parameters<typeof mainAndSub>[1] = 'still') {
  const publication = await mainAndSub(target, scene);
  cleanup.push(() => publication.stop());
  return publication;
}

interface Pull {
  code: number | null;
  stderr: string;
}

/** Plays `url` with ffmpeg as a client (RTSP over TCP unless `transport` says otherwise). */
function pull(
  url: string,
  { frames = 5, transport = 'tcp' }: { frames?: number; transport?: string | null } = {},
) {
  const args = ['-hide_banner', '-nostats'];
  if (transport) args.push('-rtsp_transport', transport);
  args.push('-i', url, '-c', 'copy', ...(frames > 0 ? ['-frames:v', String(frames)] : []), '-f', 'null', '-');
  const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Pull>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  cleanup.push(async () => {
    child.kill('SIGKILL');
    await done;
  });
  return { done, child, stderr: () => stderr };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('test RTSP server', () => {
  it('relays main and sub to a player logging in with Digest', async () => {
    const rtsp = await server({ auth: { ...login, scheme: 'digest' } });
    await publish(rtsp);
    expect(rtsp.stats().publishers.sort()).toEqual(['/main', '/sub']);

    const [main, sub] = await Promise.all([
      pull(rtsp.url('/main', true)).done,
      pull(rtsp.url('/sub', true)).done,
    ]);
    expect(main.code, main.stderr).toBe(0);
    expect(main.stderr).toMatch(/Video: h264.*1280x720/);
    expect(sub.code, sub.stderr).toBe(0);
    expect(sub.stderr).toMatch(/Video: h264.*640x360/);
  });

  it('relays to a player logging in with Basic', async () => {
    const rtsp = await server({ auth: { ...login, scheme: 'basic' } });
    await publish(rtsp);
    const main = await pull(rtsp.url('/main', true)).done;
    expect(main.code, main.stderr).toBe(0);
  });

  it('refuses a wrong password or none with 401', async () => {
    const rtsp = await server({ auth: { ...login } });
    await publish(rtsp);
    const wrong = await pull(rtsp.url('/main').replace('rtsp://', 'rtsp://viewer:nope@')).done;
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/401/);
    const none = await pull(rtsp.url('/main')).done;
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/401/);
  });

  it('answers 404 for a path nobody publishes, and plays it once a publisher arrives', async () => {
    const rtsp = await server();
    const missing = await pull(rtsp.url('/later')).done;
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/404/);

    const arrived = rtsp.waitForPublisher('/later');
    const publication: Publication = await publishScene(rtsp.url('/later'), 'still', {
      width: 320,
      height: 180,
    });
    cleanup.push(() => publication.stop());
    await arrived;
    const played = await pull(rtsp.url('/later')).done;
    expect(played.code, played.stderr).toBe(0);
  });

  it('makes a client that asks for UDP first fall back to TCP', async () => {
    const rtsp = await server();
    await publish(rtsp);
    const played = await pull(rtsp.url('/main'), { transport: null }).done;
    expect(played.code, played.stderr).toBe(0);
  });

  it('ends a player stream on dropPlayers, as an upstream drop', async () => {
    const rtsp = await server();
    await publish(rtsp);
    const player = pull(rtsp.url('/main'), { frames: 0 });
    // Playing: ffmpeg has found the stream's picture size (from frames) and opened its output.
    await until(() => player.stderr().includes('Output #0'));
    expect(rtsp.stats().players['/main']).toBe(1);
    rtsp.dropPlayers('/main');
    const ended = await player.done;
    expect(ended.stderr).toMatch(/Video: h264.*1280x720/);
    // The server counts the player gone when it sees the connection close, which can come after ffmpeg
    // has exited (seen in CI): waited for, not read at once.
    await until(() => rtsp.stats().players['/main'] === 0);
    // The publisher is untouched: a new player gets the stream again.
    const again = await pull(rtsp.url('/main')).done;
    expect(again.code, again.stderr).toBe(0);
  });

  it('ends players when their publisher goes away', async () => {
    const rtsp = await server();
    const publication = await publish(rtsp);
    const player = pull(rtsp.url('/sub'), { frames: 0 });
    await until(() => rtsp.stats().players['/sub'] === 1);
    await publication.stop();
    await player.done;
    expect(rtsp.stats().publishers).toEqual([]);
  });
});
