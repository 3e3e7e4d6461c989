import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { canEncodeHevc, makeHeic } from '../../../test/heic.js';
import { jpegWithLocation, png, webp } from '../../../test/images.js';
import { pixelBombPng } from '../../../test/pixel-bomb.js';
import { processImage, sniffImageType, thumbnailOf, UnreadableImageError } from './images.js';

describe('image type sniffing', () => {
  it('knows JPEG, PNG, WebP and HEIC by their bytes, and nothing else', async () => {
    expect(sniffImageType(await jpegWithLocation(32, 32))).toBe('jpeg');
    expect(sniffImageType(await png())).toBe('png');
    expect(sniffImageType(await webp())).toBe('webp');
    expect(sniffImageType(Buffer.from('GIF89a......'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('%PDF-1.7 not an image'))).toBeUndefined();
    const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .avif()
      .toBuffer();
    expect(sniffImageType(avif)).toBeUndefined();
  });
});

describe('snapshot thumbnails', () => {
  it('makes a WebP thumbnail and reports the size as shown, after the EXIF orientation', async () => {
    const upright = await thumbnailOf(await jpegWithLocation(1280, 720));
    expect([upright.width, upright.height]).toEqual([1280, 720]);
    const meta = await sharp(upright.thumb).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 480, 270]);

    const turned = await sharp(await jpegWithLocation(400, 200))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const shown = await thumbnailOf(turned);
    expect([shown.width, shown.height]).toEqual([200, 400]);
  });

  it('refuses bytes that are not an image', async () => {
    await expect(thumbnailOf(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(
      UnreadableImageError,
    );
  });
});

describe('the pixel limit', () => {
  it('refuses a 100,000 × 100,000 picture as a photo and as a thumbnail, from its header', async () => {
    const bomb = pixelBombPng();
    await expect(processImage(bomb, 'png')).rejects.toBeInstanceOf(UnreadableImageError);
    await expect(thumbnailOf(bomb)).rejects.toBeInstanceOf(UnreadableImageError);
    // Refused by size, not because its pixel data is short: one as wide within the limit decodes.
    const within = await thumbnailOf(pixelBombPng(100_000, 4));
    expect([within.width, within.height]).toEqual([100_000, 4]);
  });
});

describe.runIf(canEncodeHevc())('HEIC photos (needs ffmpeg with libx265 on PATH)', () => {
  it('decodes a real HEVC-coded HEIC into a JPEG and a thumbnail', async () => {
    const heic = makeHeic(64, 48, 'red');
    expect(sniffImageType(heic)).toBe('heic');
    const out = await processImage(heic, 'heic');
    expect(out).toMatchObject({ width: 64, height: 48 });
    const { data } = await sharp(out.full).raw().toBuffer({ resolveWithObject: true });
    // Red, give or take the codecs' rounding.
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(60);
    expect((await sharp(out.thumb).metadata()).format).toBe('webp');
  });
});
