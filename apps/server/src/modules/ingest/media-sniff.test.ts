import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG, hasFfmpeg } from '../../../test/clips.js';
import { jpegWithLocation, png } from '../../../test/images.js';
import { pixelBombPng } from '../../../test/pixel-bomb.js';
import { bufferSource, sniffFile, sniffMedia, type SniffResult } from './media-sniff.js';

const sniff = (buf: Buffer): Promise<SniffResult> => sniffMedia(bufferSource(buf));
const dir = mkdtempSync(join(tmpdir(), 'hs-sniff-'));

/** A short testsrc clip from ffmpeg in the given container and codec. */
function clip(name: string, args: string[]): Buffer {
  const out = join(dir, name);
  const r = spawnSync(
    FFMPEG,
    ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1']
      .concat(args)
      .concat(['-y', out]),
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return readFileSync(out);
}

const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

describe('media sniffing: images', () => {
  it('refuses a picture above the pixel limit from its header: PNG IHDR and JPEG frame header', async () => {
    expect(await sniff(pixelBombPng())).toEqual({ ok: false, reason: 'too_many_pixels' });
    expect((await sniff(pixelBombPng(10_000, 10_000))).ok).toBe(true);
    // A real JPEG (EXIF before its frame header) whose SOF says 20,000 × 20,000.
    const jpeg = Buffer.from(await jpegWithLocation(64, 48));
    let at = 2;
    while (!(jpeg[at + 1]! >= 0xc0 && jpeg[at + 1]! <= 0xc2)) at += 2 + jpeg.readUInt16BE(at + 2);
    expect([jpeg.readUInt16BE(at + 5), jpeg.readUInt16BE(at + 7)]).toEqual([48, 64]);
    jpeg.writeUInt16BE(20_000, at + 5);
    jpeg.writeUInt16BE(20_000, at + 7);
    expect(await sniff(jpeg)).toEqual({ ok: false, reason: 'too_many_pixels' });
  });

  it('accepts a whole JPEG and PNG', async () => {
    expect(await sniff(await jpegWithLocation(320, 240))).toEqual({
      ok: true,
      media: { kind: 'image', ext: 'jpg', contentType: 'image/jpeg' },
    });
    expect(await sniff(await png())).toEqual({
      ok: true,
      media: { kind: 'image', ext: 'png', contentType: 'image/png' },
    });
  });

  it('accepts a JPEG padded with zero bytes after its end', async () => {
    const jpeg = await jpegWithLocation(64, 64);
    expect((await sniff(Buffer.concat([jpeg, Buffer.alloc(100)]))).ok).toBe(true);
  });

  it('refuses an empty file', async () => {
    expect(await sniff(Buffer.alloc(0))).toEqual({ ok: false, reason: 'empty' });
  });

  it('refuses a JPEG without its end marker, even when an embedded thumbnail has one', async () => {
    const jpeg = await jpegWithLocation(320, 240);
    expect(await sniff(jpeg.subarray(0, jpeg.length - 1))).toEqual({ ok: false, reason: 'truncated' });
    expect(await sniff(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toEqual({
      ok: false,
      reason: 'truncated',
    });
  });

  it('refuses a PNG without IEND', async () => {
    const image = await png(100, 100);
    expect(await sniff(image.subarray(0, image.length - 12))).toEqual({ ok: false, reason: 'truncated' });
  });

  it('refuses text, HTML, GIF and a renamed executable', async () => {
    for (const bytes of [
      Buffer.from('hello camera'),
      Buffer.from('<html><body>not a photo</body></html>'),
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1'),
    ])
      expect(await sniff(bytes)).toEqual({ ok: false, reason: 'not_media' });
  });
});

describe.skipIf(!hasFfmpeg())('media sniffing: clips', () => {
  let mp4: Buffer;
  beforeAll(() => {
    mp4 = clip('a.mp4', h264);
  });

  it('accepts H.264 in MP4 and MOV', async () => {
    expect(await sniff(mp4)).toEqual({
      ok: true,
      media: { kind: 'video', ext: 'mp4', contentType: 'video/mp4' },
    });
    expect(await sniff(clip('a.mov', h264))).toEqual({
      ok: true,
      media: { kind: 'video', ext: 'mov', contentType: 'video/quicktime' },
    });
  });

  it('accepts an MP4 whose index comes first (faststart) and a fragmented one', async () => {
    expect((await sniff(clip('fast.mp4', [...h264, '-movflags', '+faststart']))).ok).toBe(true);
    expect((await sniff(clip('frag.mp4', [...h264, '-movflags', 'frag_keyframe+empty_moov']))).ok).toBe(true);
  });

  it('accepts MKV and AVI', async () => {
    expect(await sniff(clip('a.mkv', h264))).toEqual({
      ok: true,
      media: { kind: 'video', ext: 'mkv', contentType: 'video/x-matroska' },
    });
    expect(await sniff(clip('a.avi', ['-c:v', 'mjpeg']))).toEqual({
      ok: true,
      media: { kind: 'video', ext: 'avi', contentType: 'video/x-msvideo' },
    });
  });

  it('refuses an MP4 cut off mid-file or missing its index', async () => {
    expect(await sniff(mp4.subarray(0, mp4.length - 100))).toEqual({ ok: false, reason: 'truncated' });
    // Cut right after `mdat` ends, before `moov` (a recorder killed before it wrote the index)
    const cut = mp4.indexOf('moov', 0, 'latin1') - 4;
    expect(await sniff(mp4.subarray(0, cut))).toEqual({ ok: false, reason: 'truncated' });
  });

  it('refuses a cut-off AVI and MKV', async () => {
    const avi = clip('b.avi', ['-c:v', 'mjpeg']);
    expect(await sniff(avi.subarray(0, avi.length - 500))).toEqual({ ok: false, reason: 'truncated' });
    const mkv = clip('b.mkv', h264);
    expect(await sniff(mkv.subarray(0, mkv.length - 500))).toEqual({ ok: false, reason: 'truncated' });
  });

  it('refuses an MP4 whose video is neither H.264 nor H.265', async () => {
    expect(await sniff(clip('mpeg4.mp4', ['-c:v', 'mpeg4']))).toEqual({
      ok: false,
      reason: 'unsupported_codec',
    });
  });

  it('refuses an MP4 with no video track', async () => {
    const out = join(dir, 'audio.mp4');
    const r = spawnSync(FFMPEG, [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '1'],
      ...['-c:a', 'aac', '-y', out],
    ]);
    expect(r.status).toBe(0);
    expect(await sniff(readFileSync(out))).toEqual({ ok: false, reason: 'not_media' });
  });

  it('reads a file on disk without loading it whole', async () => {
    const path = join(dir, 'disk.mp4');
    writeFileSync(path, mp4);
    expect((await sniffFile(path)).ok).toBe(true);
  });
});
