import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHls } from './hls.js';
import { createMp4Reader, type InitSegment } from './mp4.js';
import { fragmented, patternClip, probe, tempDir } from './test-media.js';
import type { Fragment } from './types.js';

function init(name: string): InitSegment {
  return { data: Buffer.from(name), tracks: [], mimeType: 'video/mp4; codecs="avc1.42001e"' };
}

let clock = Date.parse('2026-01-01T00:00:00Z');
function fragments(count: number, gop: number): Fragment[] {
  return Array.from({ length: count }, (_, i) => ({
    data: Buffer.from(`f${i};`),
    keyframe: i % gop === 0,
    receivedAt: (clock += 100),
    durationMs: 100,
    sequence: i,
  }));
}

function uris(playlist: string): string[] {
  return playlist.split('\n').filter((line) => line && !line.startsWith('#'));
}

describe('live HLS', () => {
  it('has no playlist before a whole segment exists', () => {
    const hls = createHls();
    expect(hls.playlist()).toBeUndefined();
    hls.reset(init('a'));
    for (const fragment of fragments(15, 20)) hls.push(fragment);
    expect(hls.playlist()).toBeUndefined();
  });

  it('cuts segments from keyframe to keyframe and lists a sliding window of six', () => {
    const hls = createHls();
    hls.reset(init('a'));
    for (const fragment of fragments(201, 20)) hls.push(fragment);
    const playlist = hls.playlist('exp=1&sig=abc')!;
    expect(playlist.split('\n').slice(0, 6)).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:4',
      '#EXT-X-DISCONTINUITY-SEQUENCE:0',
      '#EXT-X-INDEPENDENT-SEGMENTS',
    ]);
    expect(playlist).toContain('#EXT-X-MAP:URI="init-0.mp4?exp=1&sig=abc"');
    expect(playlist.match(/#EXTINF:2\.000,/g)).toHaveLength(6);
    expect(uris(playlist)).toEqual([4, 5, 6, 7, 8, 9].map((n) => `segment-${n}.m4s?exp=1&sig=abc`));
    expect(hls.segment(9)!.toString()).toBe(Array.from({ length: 20 }, (_, i) => `f${180 + i};`).join(''));
    expect(hls.segment(3)).toBeUndefined();
    expect(hls.segment(10)).toBeUndefined();
    expect(hls.init()!.toString()).toBe('a');
  });

  it('marks a reconnect with a discontinuity and a new map, then counts it as the old segments slide out', () => {
    const hls = createHls({ windowSegments: 3 });
    hls.reset(init('a'));
    for (const fragment of fragments(61, 20)) hls.push(fragment);
    hls.reset(init('b'));
    for (const fragment of fragments(41, 20)) hls.push(fragment);
    let playlist = hls.playlist()!;
    expect(playlist).toMatch(
      /#EXT-X-MAP:URI="init-0\.mp4"\n(?:.*\n){2}segment-2\.m4s\n#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="init-1\.mp4"\n(?:.*\n){2}segment-3\.m4s\n/,
    );
    expect(hls.init(0)!.toString()).toBe('a');
    expect(hls.init(1)!.toString()).toBe('b');
    for (const fragment of fragments(41, 20)) hls.push(fragment);
    playlist = hls.playlist()!;
    expect(playlist).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
    expect(playlist).not.toContain('#EXT-X-DISCONTINUITY\n');
    expect(hls.init(0)).toBeUndefined();
    expect(hls.init()!.toString()).toBe('b');
  });
});

describe('live HLS from a camera stream', () => {
  it('writes a playlist that ffprobe plays through: every frame of its segments decodes', async () => {
    const reader = createMp4Reader();
    const hls = createHls({ windowSegments: 6 });
    let frames = 0;
    const dir = await tempDir();
    try {
      const clip = await patternClip(join(dir.path, 'camera.mp4'), {
        seconds: 10,
        fps: 10,
        profile: 'baseline',
        level: '3.1',
      });
      const events = reader.push(await fragmented(clip), Date.parse('2026-01-01T00:00:00Z'));
      for (const event of events) {
        if (event.type === 'init') hls.reset(event.init);
        else hls.push(event.fragment);
      }
      const playlist = hls.playlist()!;
      // Closed, so ffprobe reads it to the end instead of waiting for the live playlist to grow.
      await writeFile(join(dir.path, 'live.m3u8'), `${playlist}#EXT-X-ENDLIST\n`);
      await writeFile(join(dir.path, 'init-0.mp4'), hls.init(0)!);
      for (const uri of uris(playlist)) {
        const sequence = Number(/segment-(\d+)\.m4s/.exec(uri)![1]);
        const segment = hls.segment(sequence)!;
        await writeFile(join(dir.path, uri), segment);
        frames += (segment.toString('latin1').match(/moof/g) ?? []).length;
      }
      // prettier-ignore
      const result = probe(join(dir.path, 'live.m3u8'), [
        '-allowed_extensions', 'ALL', '-count_frames', '-select_streams', 'v:0', '-show_streams',
      ]);
      expect(result.streams![0]).toMatchObject({ codec_name: 'h264', width: 768, height: 432 });
      expect(Number(result.streams![0]!.nb_read_frames)).toBe(frames);
      expect(frames).toBeGreaterThan(40);
    } finally {
      await dir.remove();
    }
  });
});
