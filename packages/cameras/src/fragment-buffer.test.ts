import { describe, expect, it } from 'vitest';
import { createFragmentBuffer } from './fragment-buffer.js';
import type { InitSegment } from './mp4.js';
import type { Fragment } from './types.js';

const init: InitSegment = {
  data: Buffer.from('init'),
  tracks: [],
  mimeType: 'video/mp4; codecs="avc1.42001e"',
};

/** A 10 fps stream with a keyframe every `gop` frames, starting at t = 0. */
function stream(count: number, gop = 10, from = 0): Fragment[] {
  return Array.from({ length: count }, (_, i) => ({
    data: Buffer.alloc(100, i % 256),
    keyframe: (from + i) % gop === 0,
    receivedAt: (from + i) * 100,
    durationMs: 100,
    sequence: from + i,
  }));
}

describe('the pre-event fragment buffer', () => {
  it('keeps at least the configured seconds, always starting at a keyframe', () => {
    const buffer = createFragmentBuffer({ keepMs: 3000 });
    buffer.reset(init);
    for (const fragment of stream(100)) buffer.push(fragment);
    const all = buffer.from(0);
    expect(all[0]!.keyframe).toBe(true);
    expect(buffer.newest()!.receivedAt - all[0]!.receivedAt).toBeGreaterThanOrEqual(3000);
    expect(buffer.size()).toBeLessThanOrEqual(40);
  });

  it('gives a new viewer the fragments from the newest keyframe on', () => {
    const buffer = createFragmentBuffer({ keepMs: 3000 });
    buffer.reset(init);
    for (const fragment of stream(95)) buffer.push(fragment);
    const recent = buffer.sinceKeyframe();
    expect(recent.map((f) => f.sequence)).toEqual([90, 91, 92, 93, 94]);
    expect(recent[0]!.keyframe).toBe(true);
  });

  it('starts a clip at the last keyframe at or before the pre-event time', () => {
    const buffer = createFragmentBuffer({ keepMs: 3000 });
    buffer.reset(init);
    for (const fragment of stream(95)) buffer.push(fragment);
    expect(buffer.from(8_750)[0]!.sequence).toBe(80);
    expect(buffer.from(9_000)[0]!.sequence).toBe(90);
    // Older than anything kept: from the oldest keyframe.
    expect(buffer.from(0)[0]!.sequence).toBe(buffer.from(-1)[0]!.sequence);
    expect(buffer.from(0)[0]!.keyframe).toBe(true);
  });

  it('drops what comes before the first keyframe and starts over with a new init segment', () => {
    const buffer = createFragmentBuffer({ keepMs: 3000 });
    buffer.reset(init);
    for (const fragment of stream(15, 10, 5)) buffer.push(fragment);
    expect(buffer.from(0)[0]!.sequence).toBe(10);
    buffer.reset({ ...init, data: Buffer.from('init2') });
    expect(buffer.size()).toBe(0);
    expect(buffer.sinceKeyframe()).toEqual([]);
    expect(buffer.init()!.data.toString()).toBe('init2');
  });

  it('caps the bytes kept when keyframes are rare', () => {
    const buffer = createFragmentBuffer({ keepMs: 60_000, maxBytes: 2_000 });
    buffer.reset(init);
    for (const fragment of stream(100, 10)) buffer.push(fragment);
    expect(buffer.size()).toBeLessThanOrEqual(20);
    expect(buffer.from(0)[0]!.keyframe).toBe(true);
  });
});
