import { open, readFile } from 'node:fs/promises';
import type { Sharp } from 'sharp';
import { loadSharp, openImage, withinPixelLimit } from '../../platform/sharp.js';

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'heic';

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);

/** The image type from its first bytes; the file name and Content-Type header are never trusted. */
export function sniffImageType(buf: Buffer): ImageKind | undefined {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (buf.length >= 16 && buf.toString('latin1', 4, 8) === 'ftyp') {
    // ISO-BMFF: the major brand, then the compatible brands up to the end of the ftyp box.
    const boxSize = Math.min(buf.readUInt32BE(0), buf.length, 256);
    const brands = [buf.toString('latin1', 8, 12)];
    for (let o = 16; o + 4 <= boxSize; o += 4) brands.push(buf.toString('latin1', o, o + 4));
    if (brands.some((b) => HEIC_BRANDS.has(b))) return 'heic';
  }
  return undefined;
}

/** Bytes `sniffImageType` looks at: the ISO-BMFF brands of a HEIC end within them. */
const SNIFF_BYTES = 256;

/** The type of an image kept in a file, from its first bytes. */
export async function sniffImageFile(path: string): Promise<ImageKind | undefined> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(head, 0, SNIFF_BYTES, 0);
    return sniffImageType(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

export interface ProcessedImage {
  /** Re-encoded JPEG, at most MAX_EDGE px on its longest side, without any metadata (EXIF location gone). */
  full: Buffer;
  /** WebP thumbnail, THUMB_EDGE px on its longest side. */
  thumb: Buffer;
  width: number;
  height: number;
}

export const MAX_EDGE = 2560;
export const THUMB_EDGE = 480;
export class UnreadableImageError extends Error {}

async function decodeHeic(input: Buffer | string): Promise<Sharp> {
  // libvips in sharp's prebuilt binary reads HEIF with AV1 only; HEVC-coded HEIC is decoded by libheif (WASM),
  // from the whole file in memory. Its size is read from the container first: one too large is never decoded.
  const { default: heic } = await import('heic-decode');
  const buf = typeof input === 'string' ? await readFile(input) : input;
  const images = await heic.all({ buffer: buf });
  try {
    const primary = images[0];
    if (!primary) throw new UnreadableImageError('The image has no picture');
    if (!withinPixelLimit(primary.width, primary.height))
      throw new UnreadableImageError('The image is too large to read');
    const { width, height, data } = await primary.decode();
    return await openImage(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      raw: { width, height, channels: 4 },
    });
  } finally {
    images.dispose();
  }
}

/**
 * Decodes, applies the EXIF orientation, and writes a fresh JPEG and a WebP thumbnail. sharp writes no
 * metadata unless asked, so EXIF (GPS location included), XMP and IPTC are dropped.
 * `input` is the image's bytes or the path of a file holding them (libvips then reads it as it decodes).
 */
export async function processImage(input: Buffer | string, kind: ImageKind): Promise<ProcessedImage> {
  await acquire();
  try {
    return await decodeAndEncode(input, kind);
  } finally {
    release();
  }
}

export interface Thumbnail {
  /** WebP, THUMB_EDGE px on its longest side (never enlarged). */
  thumb: Buffer;
  /** Size of the original as it is shown (after its EXIF orientation). */
  width: number;
  height: number;
}

/**
 * Snapshot thumbnails made at once. They have their own limit, apart from the photo re-encodes' above: a
 * camera snapshot is decoded at a fraction of its size, so two at once cost little memory, and a burst of
 * camera events neither waits behind a member's 4 MB photo nor leaves the second core idle.
 */
export const MAX_PARALLEL_THUMBNAILS = 2;
const thumbnailSlots = createSlots(MAX_PARALLEL_THUMBNAILS);

/**
 * A thumbnail of an image that is kept as it came (a camera snapshot): only the thumbnail is encoded, and
 * JPEGs are decoded at a fraction of their size (libvips shrink-on-load), so this is cheap enough to run
 * for every snapshot a camera sends. WebP at effort 2 (of 0–6): a third faster to encode than the default
 * 4 for a 480 px picture, a few percent larger.
 */
export async function thumbnailOf(buf: Buffer): Promise<Thumbnail> {
  await thumbnailSlots.acquire();
  try {
    try {
      const source = await openImage(buf, { failOn: 'error' });
      const meta = await source.metadata();
      if (!meta.width || !meta.height) throw new UnreadableImageError('The image has no size');
      // EXIF orientations 5 to 8 turn the picture by 90°: width and height as shown swap.
      const turned = (meta.orientation ?? 1) >= 5;
      const thumb = await source
        .rotate()
        .flatten({ background: '#ffffff' })
        .resize({ width: THUMB_EDGE, height: THUMB_EDGE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75, effort: 2 })
        .toBuffer();
      return {
        thumb,
        width: turned ? meta.height : meta.width,
        height: turned ? meta.width : meta.height,
      };
    } catch (err) {
      if (err instanceof UnreadableImageError) throw err;
      throw new UnreadableImageError('The image could not be read', { cause: err });
    }
  } finally {
    thumbnailSlots.release();
  }
}

/** At most `size` holders at once; the others wait in arrival order. */
function createSlots(size: number) {
  let taken = 0;
  const queue: (() => void)[] = [];
  return {
    acquire(): Promise<void> {
      if (taken < size) {
        taken += 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => queue.push(resolve));
    },
    release(): void {
      const next = queue.shift();
      if (next) next();
      else taken -= 1;
    },
  };
}

/** Images decoded at once; more wait their turn, which bounds memory during a burst of uploads. */
export const MAX_PARALLEL_IMAGES = 1;
let active = 0;
const waiting: (() => void)[] = [];

function acquire(): Promise<void> {
  if (active < MAX_PARALLEL_IMAGES) {
    active += 1;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else active -= 1;
}

async function decodeAndEncode(input: Buffer | string, kind: ImageKind): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  try {
    const source =
      kind === 'heic' ? await decodeHeic(input) : (await openImage(input, { failOn: 'error' })).rotate();
    const base = source.flatten({ background: '#ffffff' });
    const { data: full, info } = await base
      .clone()
      .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      // Plain libjpeg, not mozjpeg: on a 4 MB, 2,000-px photo mozjpeg's trellis quantisation and progressive
      // scans took ~9 s of CPU and ~10 MB more memory for a file ~14% smaller; libjpeg takes ~0.6 s.
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(full)
      .resize({ width: THUMB_EDGE, height: THUMB_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    return { full, thumb, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof UnreadableImageError) throw err;
    throw new UnreadableImageError('The image could not be read', { cause: err });
  }
}
