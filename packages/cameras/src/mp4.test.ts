import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codecString, createMp4Reader, isSyncSample, Mp4Error, type InitSegment } from './mp4.js';
import { chunked, fragmented, patternClip, tempDir } from './test-media.js';
import type { Fragment } from './types.js';

function readAll(data: Buffer[]): { inits: InitSegment[]; fragments: Fragment[] } {
  const reader = createMp4Reader();
  const inits: InitSegment[] = [];
  const fragments: Fragment[] = [];
  for (const chunk of data) {
    for (const event of reader.push(chunk)) {
      if (event.type === 'init') inits.push(event.init);
      else fragments.push(event.fragment);
    }
  }
  return { inits, fragments };
}

describe('sample flags', () => {
  it('tells a sync sample from one that depends on others', () => {
    expect(isSyncSample(0x02000000)).toBe(true);
    expect(isSyncSample(0x01010000)).toBe(false);
    expect(isSyncSample(0x00010000)).toBe(false);
    expect(isSyncSample(0x01000000)).toBe(false);
    expect(isSyncSample(0)).toBe(true);
  });
});

describe('reading ffmpeg fragmented MP4 from a pipe', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  /** A 10.1 s camera clip at 10 fps (H.264 Main 3.1, a keyframe a second), fragmented. */
  let person: Buffer;
  /** A 3 s clip at 12.5 fps in H.264 Baseline 2.2, another camera's profile. */
  let car: string;
  beforeAll(async () => {
    dir = await tempDir();
    const clip = await patternClip(join(dir.path, 'main.mp4'), {
      seconds: 10.1,
      fps: 10,
      profile: 'main',
      level: '3.1',
    });
    person = await fragmented(clip);
    car = await patternClip(join(dir.path, 'baseline.mp4'), {
      seconds: 3,
      fps: 12.5,
      profile: 'baseline',
      level: '2.2',
    });
  });
  afterAll(() => dir.remove());

  it('splits the stream into one init segment and a fragment per frame, whatever the chunking', () => {
    const whole = readAll([person]);
    const pieces = readAll(chunked(person, 7));
    expect(whole.inits).toHaveLength(1);
    expect(whole.fragments).toHaveLength(101);
    expect(pieces.fragments.map((f) => f.data.length)).toEqual(whole.fragments.map((f) => f.data.length));
    expect(pieces.fragments.map((f) => f.sequence)).toEqual([...Array(101).keys()]);
    expect(
      Buffer.concat([whole.inits[0]!.data, ...whole.fragments.map((f) => f.data)]).length,
    ).toBeLessThanOrEqual(person.length);
  });

  it('marks the keyframes (the clip has 11 I-frames, the first one first) and sums the durations', () => {
    const { fragments } = readAll(chunked(person));
    expect(fragments[0]!.keyframe).toBe(true);
    expect(fragments.filter((f) => f.keyframe)).toHaveLength(11);
    const total = fragments.reduce((sum, f) => sum + f.durationMs, 0);
    expect(total).toBeCloseTo(10_100, -1);
    expect(fragments[5]!.durationMs).toBeCloseTo(100, 5);
  });

  it('builds the MSE mime type from the avcC (H.264 Main, level 3.1)', () => {
    const { inits } = readAll([person]);
    expect(codecString(inits[0]!)).toMatch(/^video\/mp4; codecs="avc1\.4d[0-9a-f]{2}1f"$/);
    expect(codecString(inits[0]!.data)).toBe(inits[0]!.mimeType);
    expect(inits[0]!.tracks[0]).toMatchObject({ kind: 'video', width: 768, height: 432 });
  });

  it('adds the AAC track to the codecs (mp4a.40.2)', async () => {
    // prettier-ignore
    const withAudio = await fragmented(car, [
      '-f', 'lavfi', '-t', '3', '-i', 'sine=frequency=440:sample_rate=16000',
      '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-t', '3',
    ]);
    const { inits, fragments } = readAll(chunked(withAudio));
    expect(inits[0]!.mimeType).toMatch(/^video\/mp4; codecs="avc1\.42[0-9a-f]{2}16,mp4a\.40\.2"$/);
    // Audio-only fragments carry no video: never a keyframe, no video duration.
    expect(fragments.some((f) => !f.keyframe && f.durationMs === 0)).toBe(true);
    expect(fragments.filter((f) => f.keyframe).length).toBeGreaterThanOrEqual(1);
  });

  it('reads boxes with 64-bit sizes and skips boxes it does not need', () => {
    const { inits, fragments } = readAll([person]);
    const mdatAt = fragments[1]!.data.indexOf('mdat') - 4;
    const moof = fragments[1]!.data.subarray(0, mdatAt);
    const payload = fragments[1]!.data.subarray(mdatAt + 8);
    const largeHeader = Buffer.alloc(16);
    largeHeader.writeUInt32BE(1, 0);
    largeHeader.write('mdat', 4, 'latin1');
    largeHeader.writeBigUInt64BE(BigInt(payload.length + 16), 8);
    const free = Buffer.from([0, 0, 0, 12, 0x66, 0x72, 0x65, 0x65, 1, 2, 3, 4]);
    const stream = Buffer.concat([inits[0]!.data, fragments[0]!.data, free, moof, largeHeader, payload]);
    const again = readAll(chunked(stream, 3));
    expect(again.fragments).toHaveLength(2);
    expect(again.fragments[1]!.keyframe).toBe(false);
    expect(again.fragments[1]!.data.subarray(moof.length + 16)).toEqual(payload);
  });

  it('refuses garbage with a clear error', () => {
    expect(() => readAll([Buffer.from('RTSP/1.0 401 Unauthorized\r\n\r\n')])).toThrow(Mp4Error);
    expect(() => readAll([Buffer.from('RTSP/1.0 401 Unauthorized\r\n\r\n')])).toThrow(
      /not a fragmented MP4 stream/,
    );
    const { fragments } = readAll([person]);
    expect(() => readAll([fragments[3]!.data])).toThrow(/before the init segment/);
    const tiny = Buffer.from([0, 0, 0, 4, 0x66, 0x72, 0x65, 0x65]);
    expect(() => readAll([tiny])).toThrow(/bad size 4/);
  });
});
