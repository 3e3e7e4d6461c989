import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/logger.js';
import { MediaToolMissingError, UnreadableClipError } from '../media/ffmpeg.js';
import { clipFrameCount, createActivityFrames, pickSnapshots } from './activity-frames.js';
import type { ActivityRow } from '../activities/activities.repository.js';

function storageOf(files: Record<string, string>) {
  return {
    get: async (key: string) =>
      key in files
        ? {
            body: Readable.from([Buffer.from(files[key]!)]),
            contentType: 'image/jpeg',
            size: files[key]!.length,
          }
        : undefined,
  };
}

const activity = (over: Partial<ActivityRow>) =>
  ({
    id: 'a1',
    videoKey: null,
    thumbnailKey: null,
    imageKeys: [],
    durationSeconds: null,
    ...over,
  }) as ActivityRow;

describe('frames of an activity', () => {
  it('takes 3, 4 or 5 frames of a clip by its length', () => {
    expect([4, 10.1, 10.5, 12, 20, 30, null].map(clipFrameCount)).toEqual([3, 3, 3, 4, 4, 5, 5]);
  });

  it('looks at the first, middle and last of many snapshots, and at every one of a few', () => {
    expect(pickSnapshots(['a', 'b'])).toEqual(['a', 'b']);
    expect(pickSnapshots(['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'c', 'e']);
  });

  it("reads a snapshot event's images, skipping one that is gone", async () => {
    const frames = createActivityFrames({
      storage: storageOf({ 'k/1.jpg': 'one', 'k/3.jpg': 'three' }),
      extractFrames: async () => [],
      maxBytes: 1024,
      onToolMissing: () => undefined,
      log: createLogger('silent'),
    });
    const got = await frames.load(activity({ imageKeys: ['k/1.jpg', 'k/2.jpg', 'k/3.jpg'] }));
    expect(got.frames.map(String)).toEqual(['one', 'three']);
    expect(got.clip).toBe(false);
  });

  it('cuts frames from a clip, and falls back to its poster when the clip cannot be read', async () => {
    const asked: number[] = [];
    const files = { 'k/clip.mp4': 'clip', 'k/poster.jpg': 'poster' };
    const clip = activity({ videoKey: 'k/clip.mp4', thumbnailKey: 'k/poster.jpg', durationSeconds: 15 });
    const working = createActivityFrames({
      storage: storageOf(files),
      extractFrames: async (video, count) => {
        asked.push(count);
        return Array.from({ length: count }, (_, i) => Buffer.from(`${String(video)}-${i}`));
      },
      maxBytes: 1024,
      onToolMissing: () => undefined,
      log: createLogger('silent'),
    });
    expect(await working.load(clip)).toEqual({
      frames: ['clip-0', 'clip-1', 'clip-2', 'clip-3'].map((f) => Buffer.from(f)),
      clip: true,
    });
    expect(asked).toEqual([4]);

    const broken = createActivityFrames({
      storage: storageOf(files),
      extractFrames: async () => {
        throw new UnreadableClipError('no frames');
      },
      maxBytes: 1024,
      onToolMissing: () => undefined,
      log: createLogger('silent'),
    });
    expect(await broken.load(clip)).toEqual({ frames: [Buffer.from('poster')], clip: false });
  });

  it('looks at the poster when ffmpeg cannot run, and reports the missing tool instead of failing', async () => {
    const reported: string[] = [];
    const frames = createActivityFrames({
      storage: storageOf({ 'k/clip.mp4': 'clip', 'k/poster.jpg': 'poster' }),
      extractFrames: async () => {
        throw new MediaToolMissingError('/nowhere/ffmpeg', 'was not found');
      },
      maxBytes: 1024,
      onToolMissing: (err) => void reported.push(err.tool),
      log: createLogger('silent'),
    });
    const clip = activity({ videoKey: 'k/clip.mp4', thumbnailKey: 'k/poster.jpg' });
    expect(await frames.load(clip)).toEqual({ frames: [Buffer.from('poster')], clip: false });
    expect((await frames.load(activity({ videoKey: 'k/clip.mp4' }))).frames).toEqual([]);
    expect(reported).toEqual(['/nowhere/ffmpeg', '/nowhere/ffmpeg']);
  });

  it('does not read media larger than the ingest allows', async () => {
    const frames = createActivityFrames({
      storage: storageOf({ 'k/big.jpg': 'x'.repeat(100) }),
      extractFrames: async () => [],
      maxBytes: 10,
      onToolMissing: () => undefined,
      log: createLogger('silent'),
    });
    expect((await frames.load(activity({ imageKeys: ['k/big.jpg'] }))).frames).toEqual([]);
  });
});
