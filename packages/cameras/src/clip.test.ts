import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClipWriter, frameJpeg, writeClip } from './clip.js';
import { createMp4Reader, type InitSegment } from './mp4.js';
import { ffmpeg, ffmpegPath, fixture, fragmented, grayFrames, probe, tempDir } from './test-media.js';
import type { Fragment } from './types.js';

describe('clips and snapshots from fragments', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let init: InitSegment;
  const fragments: Fragment[] = [];
  beforeAll(async () => {
    dir = await tempDir();
    for (const event of createMp4Reader().push(await fragmented(fixture('clip-person.mp4')))) {
      if (event.type === 'init') init = event.init;
      else fragments.push(event.fragment);
    }
  });
  afterAll(() => dir.remove());

  it('writes a faststart MP4 holding exactly the fragments given', async () => {
    const from = fragments.findIndex((f, i) => i > 30 && f.keyframe);
    const part = fragments.slice(from, from + 40);
    const path = await writeClip({ ffmpegPath, tmpDir: dir.path, init, fragments: part });
    const info = probe(path, ['-count_frames', '-show_format', '-show_streams']);
    expect(Number(info.format!.duration)).toBeCloseTo(4, 0);
    expect(info.streams![0]).toMatchObject({
      codec_name: 'h264',
      width: 768,
      height: 432,
      nb_read_frames: '40',
    });
    const bytes = await readFile(path);
    // faststart: the moov comes before the media data.
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(bytes.indexOf('moof')).toBe(-1);
  });

  it('records as it goes and can throw a recording away', async () => {
    const writer = createClipWriter({ ffmpegPath, tmpDir: dir.path, init });
    for (const fragment of fragments.slice(0, 20)) writer.write(fragment);
    expect(writer.durationMs()).toBeCloseTo(2000, 0);
    expect(writer.startedAt()).toBe(fragments[0]!.receivedAt);
    const clip = await writer.finish();
    expect(Number(probe(clip.path).format!.duration)).toBeCloseTo(2, 0);
    const thrown = createClipWriter({ ffmpegPath, tmpDir: dir.path, init });
    thrown.write(fragments[0]!);
    await thrown.abort();
  });

  it('cuts a recording after the fact, just ahead of a keyframe', async () => {
    const writer = createClipWriter({ ffmpegPath, tmpDir: dir.path, init });
    const part = fragments.slice(0, 35);
    for (const fragment of part) writer.write(fragment);
    const key = part.findLast((f) => f.keyframe)!;
    const clip = await writer.finish(key);
    const info = probe(clip.path, ['-count_frames', '-show_streams']);
    expect(Number(info.streams![0]!.nb_read_frames)).toBe(part.indexOf(key));
  });

  it('answers a JPEG of the last frame at the stream resolution', async () => {
    const lastKey = fragments.findLastIndex((f) => f.keyframe);
    const jpeg = await frameJpeg({ ffmpegPath, init, fragments: fragments.slice(lastKey) });
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(jpeg.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    const path = `${dir.path}/last.jpg`;
    await writeFile(path, jpeg);
    expect(probe(path).streams![0]).toMatchObject({ width: 768, height: 432 });
  });

  it('shows the newest frame, not the keyframe it decoded from', async () => {
    const key = fragments.findIndex((f, i) => i >= 60 && f.keyframe);
    const gop = fragments.slice(key, key + 8);
    const jpeg = await frameJpeg({ ffmpegPath, init, fragments: gop });
    await writeFile(`${dir.path}/gop.jpg`, jpeg);
    const [shown] = await grayFrames(`${dir.path}/gop.jpg`, 192, 108, null);
    const frame = async (n: number) => {
      const path = `${dir.path}/frame-${n}.png`;
      await ffmpeg([
        '-i',
        fixture('clip-person.mp4'),
        '-vf',
        `select=eq(n\\,${n})`,
        '-vsync',
        '0',
        '-frames:v',
        '1',
        path,
      ]);
      return (await grayFrames(path, 192, 108, null))[0]!;
    };
    const distance = (a: Uint8Array, b: Uint8Array) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0);
    const newest = await frame(key + 7);
    const oldest = await frame(key);
    expect(distance(shown!, newest)).toBeLessThan(distance(shown!, oldest));
  });

  it('refuses fragments without a keyframe', async () => {
    await expect(frameJpeg({ ffmpegPath, init, fragments: fragments.slice(1, 5) })).rejects.toThrow(
      /no keyframe/,
    );
  });
});
