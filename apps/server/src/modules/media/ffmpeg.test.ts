import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FFMPEG, FFPROBE, hasFfmpeg, hasX265, makeClip } from '../../../test/clips.js';
import { fixturePath } from '../../../test/fixtures.js';
import {
  createFfmpeg,
  HLS_PLAYLIST,
  MediaToolError,
  MediaToolMissingError,
  POSTER_EDGE,
  UnreadableClipError,
} from './ffmpeg.js';

const ffmpeg = createFfmpeg({ ffmpegPath: FFMPEG, ffprobePath: FFPROBE });
const outDir = () => mkdtempSync(join(tmpdir(), 'hs-hls-'));
const x265 = hasX265();
if (!x265) console.warn('this ffmpeg has no libx265: the H.265 clip cases are skipped');

/** The playlist's media lines (segments) and the init segment it maps. */
function playlistFiles(dir: string) {
  const text = readFileSync(join(dir, HLS_PLAYLIST), 'utf8');
  return {
    text,
    segments: text.split('\n').filter((l) => l && !l.startsWith('#')),
    init: /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1],
  };
}

async function probeOutput(dir: string) {
  // The init segment plus the first media segment make a playable fMP4: ffprobe reads its codec from them.
  const joined = join(dir, 'joined.mp4');
  writeFileSync(
    joined,
    Buffer.concat([readFileSync(join(dir, 'init.mp4')), readFileSync(join(dir, 'seg000.m4s'))]),
  );
  return ffmpeg.probe(joined);
}

describe.runIf(hasFfmpeg())('ffmpeg', () => {
  it('reads duration, size, codec and audio of an H.264 clip', async () => {
    const info = await ffmpeg.probe(makeClip('h264', { seconds: 2, width: 320, height: 240, audio: true }));
    expect(info).toMatchObject({ width: 320, height: 240, codec: 'h264', audioCodec: 'aac' });
    expect(info.durationSeconds).toBeCloseTo(2, 0);
  });

  it('makes a JPEG poster no larger than the poster edge', async () => {
    const poster = await ffmpeg.poster(makeClip('h264', { seconds: 2, width: 1280, height: 720 }));
    const meta = await sharp(poster).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(POSTER_EDGE);
    expect(meta.height).toBe(360);
  });

  it('copies H.264 into fMP4 HLS without re-encoding it, and turns camera audio into AAC', async () => {
    const dir = outDir();
    const result = await ffmpeg.toHls(makeClip('h264', { seconds: 6, audio: true }), dir);
    expect(result.transcoded).toBe(false);
    expect(result.files.at(-1)).toBe(HLS_PLAYLIST);
    const { text, segments, init } = playlistFiles(dir);
    expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(text).toContain('#EXT-X-ENDLIST');
    expect(init).toBe('init.mp4');
    expect(segments.length).toBeGreaterThanOrEqual(2);
    expect(segments.every((s) => result.files.includes(s))).toBe(true);
    const out = await probeOutput(dir);
    expect(out).toMatchObject({ codec: 'h264', audioCodec: 'aac', width: 320, height: 240 });
  });

  it.runIf(x265)('re-encodes an H.265 clip to H.264 so every browser plays it', async () => {
    const clip = makeClip('hevc', { seconds: 3 });
    expect((await ffmpeg.probe(clip)).codec).toBe('hevc');
    const dir = outDir();
    const result = await ffmpeg.toHls(clip, dir);
    expect(result.transcoded).toBe(true);
    expect((await probeOutput(dir)).codec).toBe('h264');
  });

  it('re-encodes a Motion-JPEG AVI with G.711 audio to H.264 and AAC', async () => {
    const clip = makeClip('mjpeg', { seconds: 2, audio: true });
    expect(await ffmpeg.probe(clip)).toMatchObject({ codec: 'mjpeg', audioCodec: 'pcm_alaw' });
    const dir = outDir();
    expect((await ffmpeg.toHls(clip, dir)).transcoded).toBe(true);
    expect(await probeOutput(dir)).toMatchObject({ codec: 'h264', audioCodec: 'aac' });
  });

  it('handles a real camera clip (clip-person.mp4)', async () => {
    const clip = fixturePath('clip-person.mp4');
    const info = await ffmpeg.probe(clip);
    expect(info).toMatchObject({ width: 768, height: 432, codec: 'h264', audioCodec: null });
    expect(info.durationSeconds).toBeCloseTo(10.1, 1);
    const poster = await sharp(await ffmpeg.poster(clip, info)).metadata();
    expect([poster.width, poster.height]).toEqual([640, 360]);
    const dir = outDir();
    const result = await ffmpeg.toHls(clip, dir, info);
    expect(result.transcoded).toBe(false);
    expect(playlistFiles(dir).segments).toEqual(['seg000.m4s', 'seg001.m4s', 'seg002.m4s']);
  });

  it('calls a file that is not a clip unreadable, with ffprobe’s reason', async () => {
    const dir = outDir();
    const notAClip = join(dir, 'x.mp4');
    writeFileSync(notAClip, 'this is text, not a video');
    const err = await ffmpeg.probe(notAClip).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadableClipError);
    expect((err as Error).message).toMatch(/Invalid data/i);
  });

  it('calls a clip cut off after its header unreadable', async () => {
    const whole = readFileSync(makeClip('h264', { seconds: 2 }));
    const dir = outDir();
    const truncated = join(dir, 'cut.mp4');
    writeFileSync(truncated, whole.subarray(0, 200));
    await expect(ffmpeg.probe(truncated)).rejects.toBeInstanceOf(UnreadableClipError);
  });

  it('says clearly when the binary is missing (a setup problem, not the file’s)', async () => {
    const missing = createFfmpeg({ ffprobePath: '/nonexistent/ffprobe' });
    const err = await missing.probe('/tmp/x.mp4').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaToolMissingError);
    expect((err as Error).message).toContain('FFMPEG_PATH');
  });

  it('kills a run that takes longer than its timeout', async () => {
    // An ffmpeg that never finishes: a real one may finish a short clip before a busy machine fires the timer.
    const hanging = join(outDir(), 'ffmpeg');
    writeFileSync(hanging, '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    const slow = createFfmpeg({ ffmpegPath: hanging, ffprobePath: FFPROBE, hlsTimeoutMs: 50 });
    const clip = makeClip('h264', { seconds: 2 });
    const err = await slow.toHls(clip, outDir()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaToolError);
    expect((err as Error).message).toMatch(/took longer than 50 ms/);
  });
});
