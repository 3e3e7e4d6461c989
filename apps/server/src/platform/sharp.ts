import type sharpDefault from 'sharp';
import type { Sharp, SharpOptions } from 'sharp';

export type SharpModule = typeof sharpDefault;
let sharpModule: Promise<SharpModule> | undefined;

/**
 * The most pixels an image may have, wherever the server takes or decodes one: camera uploads (FTP, email,
 * HTTP) are refused at acceptance above it, and no decoder (thumbnails, photos, HEIC, the vision engine) goes
 * past it. ~100 MP is more than any camera or phone writes; a 1-bit PNG of 100,000 × 100,000 pixels is a few
 * KB on disk and 30 GB decoded.
 */
export const MAX_IMAGE_PIXELS = 10_000 * 10_000;

/** Whether an image of this size may be decoded: the one check of MAX_IMAGE_PIXELS. */
export function withinPixelLimit(width: number, height: number): boolean {
  return width * height <= MAX_IMAGE_PIXELS;
}

/**
 * sharp (libvips), loaded with the first image so a server that never handles one does not carry it, and set
 * up once for every caller (uploads, thumbnails, the vision engine's decoding): no operation cache (it keeps
 * decoded images around for a repeat that never comes) and one libvips thread per image (uploads are few, and
 * each thread holds its own tiles: memory matters more than speed here).
 */
export function loadSharp(): Promise<SharpModule> {
  sharpModule ??= import('sharp').then((m) => {
    const sharp = m.default;
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

/**
 * An image opened for decoding: libvips reads its header and refuses (throws on `metadata()` or the output)
 * one above MAX_IMAGE_PIXELS before decoding any of it. Every sharp input the server did not make itself
 * goes through here.
 */
export async function openImage(input: Buffer | string, options: SharpOptions = {}): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(input, { ...options, limitInputPixels: MAX_IMAGE_PIXELS });
}
