import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeClock, publishScene } from './publisher.js';
import { startRtspServer, type RtspTestServer } from './rtsp-server.js';

const ffmpegPath = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function server(): Promise<RtspTestServer> {
  const started = await startRtspServer();
  cleanup.push(() => started.close());
  return started;
}

/** One decoded frame of `url` as RGBA at width x height, and what ffmpeg said about the input. */
function grabRgba(url: string, width: number, height: number): Promise<{ rgba: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath,
      [
        '-hide_banner',
        '-rtsp_transport',
        'tcp',
        '-i',
        url,
        '-frames:v',
        '1',
        '-vf',
        `scale=${width}:${height}`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        '-',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      const rgba = Buffer.concat(chunks);
      if (code === 0 && rgba.length === width * height * 4) resolve({ rgba, stderr });
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr}`));
    });
  });
}

describe('clock scene', () => {
  it('carries the time each frame was made, which decodeClock reads back', async () => {
    const rtsp = await server();
    const publication = await publishScene(rtsp.url('/clock'), 'clock');
    cleanup.push(() => publication.stop());

    const { rgba, stderr } = await grabRgba(rtsp.url('/clock'), 1280, 720);
    expect(stderr).toMatch(/Video: h264.*1280x720/);
    const sent = decodeClock(rgba, 1280, 720);
    expect(sent).not.toBeNull();
    expect(Math.abs(Date.now() - sent!)).toBeLessThan(60_000);
  });

  it('reads the clock from a picture scaled down, as a browser canvas may draw it', async () => {
    const rtsp = await server();
    const publication = await publishScene(rtsp.url('/main'), 'clock', { sub: true });
    cleanup.push(() => publication.stop());
    expect(publication.urls).toEqual([rtsp.url('/main'), rtsp.url('/sub')]);

    const { rgba } = await grabRgba(rtsp.url('/sub'), 333, 187);
    const sent = decodeClock(rgba, 333, 187);
    expect(Math.abs(Date.now() - sent!)).toBeLessThan(60_000);
  });

  it('answers null for a picture that is not a clock', () => {
    const grey = new Uint8Array(64 * 36 * 4).fill(128);
    expect(decodeClock(grey, 64, 36)).toBeNull();
  });
});

describe('file scenes', () => {
  it('publishes a person walking into an empty room at the asked size', async () => {
    const rtsp = await server();
    const publication = await publishScene(rtsp.url('/cam'), 'person-walks-in', { width: 640, height: 360 });
    cleanup.push(() => publication.stop());
    const { stderr } = await grabRgba(rtsp.url('/cam'), 64, 36);
    expect(stderr).toMatch(/Video: h264.*640x360/);
  });

  it('loops an H.264 fixture as it is', async () => {
    const rtsp = await server();
    const publication = await publishScene(rtsp.url('/car'), 'loop:clip-car.mp4');
    cleanup.push(() => publication.stop());
    const { stderr } = await grabRgba(rtsp.url('/car'), 64, 36);
    expect(stderr).toMatch(/Video: h264.*768x432/);
  });

  it('adds an AAC track when asked for audio', async () => {
    const rtsp = await server();
    const publication = await publishScene(rtsp.url('/main'), 'still', {
      width: 320,
      height: 180,
      audio: true,
    });
    cleanup.push(() => publication.stop());
    const { stderr } = await grabRgba(rtsp.url('/main'), 32, 18);
    expect(stderr).toMatch(/Audio: aac/);
  });

  it('fails clearly when the server refuses the publication', async () => {
    const rtsp = await server();
    const first = await publishScene(rtsp.url('/main'), 'still', { width: 320, height: 180 });
    cleanup.push(() => first.stop());
    await expect(publishScene(rtsp.url('/main'), 'still', { width: 320, height: 180 })).rejects.toThrow(
      /could not publish/,
    );
  });
});
