import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hasFfmpeg } from '../../../test/clips.js';
import { fixturePath } from '../../../test/fixtures.js';
import { UnreadableClipError } from './ffmpeg.js';
import { extractFrames } from './frames.js';

const ffmpeg = hasFfmpeg();

describe.skipIf(!ffmpeg)('frames of a clip', () => {
  describe('from a real camera clip', () => {
    it('answers the asked number of JPEG frames at the clip’s size, from a path or from bytes', async () => {
      const path = fixturePath('clip-person.mp4');
      const fromPath = await extractFrames(path, 4);
      const fromBytes = await extractFrames(readFileSync(path), 3);
      expect([fromPath.length, fromBytes.length]).toEqual([4, 3]);
      for (const jpeg of [...fromPath, ...fromBytes]) {
        const meta = await sharp(jpeg).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 768, 432]);
      }
    });

    it('spreads the frames over the clip: they differ from one another', async () => {
      const frames = await extractFrames(fixturePath('clip-person.mp4'), 4);
      const means = await Promise.all(frames.map(async (f) => (await sharp(f).stats()).channels[0]!.mean));
      expect(new Set(means.map((m) => m.toFixed(2))).size).toBe(4);
    });

    it('scales large frames down to the edge asked for', async () => {
      const [frame] = await extractFrames(fixturePath('clip-person.mp4'), 1, { maxEdge: 320 });
      const meta = await sharp(frame).metadata();
      expect([meta.width, meta.height]).toEqual([320, 180]);
    });
  });

  it('refuses what is not a clip, and a count out of range', async () => {
    await expect(extractFrames(Buffer.from('not a video at all'), 3)).rejects.toBeInstanceOf(
      UnreadableClipError,
    );
    await expect(extractFrames(Buffer.alloc(10), 0)).rejects.toBeInstanceOf(RangeError);
  });
});
