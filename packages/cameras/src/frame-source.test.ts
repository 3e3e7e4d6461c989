import { afterEach, describe, expect, it } from 'vitest';
import { createFrameSource, type FrameSource, type GrayFrame } from './frame-source.js';
import { childFfmpegs, ffmpegPath, fixture, memoryLog, waitFor } from './test-media.js';
import type { StreamStatus } from './types.js';

describe('motion frames', () => {
  let source: FrameSource | undefined;
  afterEach(async () => {
    await source?.stop();
    source = undefined;
  });

  it('decodes small gray frames, keeping the aspect ratio', async () => {
    source = createFrameSource({
      ffmpegPath,
      log: memoryLog(),
      video: { codec: 'h264', width: 768, height: 432 },
      inputArgs: ['-i', fixture('clip-person.mp4')],
    });
    expect([source.width, source.height]).toEqual([320, 180]);
    const frames: GrayFrame[] = [];
    source.on('frame', (frame) => frames.push(frame));
    source.start();
    // Without -re the file decodes as fast as it can; it then ends and the source reconnects.
    await waitFor<StreamStatus>(
      (fn) => source!.on('status', fn),
      (s) => s === 'reconnecting',
    );
    expect(frames.length).toBeGreaterThanOrEqual(49);
    expect(frames.length).toBeLessThanOrEqual(52);
    expect(frames[0]!.data).toHaveLength(320 * 180);
    // Gray, and not blank.
    expect(Math.max(...frames[10]!.data)).toBeGreaterThan(100);
  });

  it('never decodes wider than the stream, and leaves no process behind', async () => {
    source = createFrameSource({
      ffmpegPath,
      log: memoryLog(),
      width: 2000,
      fps: 2,
      video: { codec: 'h264', width: 768, height: 432 },
      inputArgs: ['-re', '-stream_loop', '-1', '-i', fixture('clip-car.mp4')],
    });
    expect([source.width, source.height]).toEqual([768, 432]);
    source.start();
    const frame = await waitFor<GrayFrame>((fn) => source!.on('frame', fn));
    expect(frame.data).toHaveLength(768 * 432);
    expect(source.status()).toBe('streaming');
    await source.stop();
    expect(childFfmpegs()).toEqual([]);
  });
});
