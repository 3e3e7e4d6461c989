/**
 * What a camera upload is, told from its bytes (never its name): JPEG, PNG, MP4/MOV, MKV or AVI, and whole.
 * Cameras cut off mid-transfer leave files that start right and end early, so each format's structure is
 * walked far enough to see its end: JPEG's EOI, PNG's IEND, ISO-BMFF boxes that fit and a `moov`, the RIFF
 * and Matroska segment sizes. Only the few bytes needed are read, so a 25 MB clip is never loaded whole.
 * A picture's size is read from its header (JPEG's frame header, PNG's IHDR) and one above the pixel limit
 * every image path shares is refused here, before anything decodes it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { MediaKind } from '../../platform/db/schema/ingest.js';
import { withinPixelLimit } from '../../platform/sharp.js';

export interface SniffedMedia {
  kind: MediaKind;
  /** Extension of the stored object, which also names its content type. */
  ext: 'jpg' | 'png' | 'mp4' | 'mov' | 'mkv' | 'avi';
  contentType: string;
}

export type RefusalReason = 'empty' | 'not_media' | 'truncated' | 'unsupported_codec' | 'too_many_pixels';

export type SniffResult = { ok: true; media: SniffedMedia } | { ok: false; reason: RefusalReason };

/** Random access to the bytes being sniffed: a file on disk or a buffer in tests. */
export interface ByteSource {
  size: number;
  /** Up to `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Promise<Buffer>;
}

export function bufferSource(buf: Buffer): ByteSource {
  return { size: buf.length, read: async (offset, length) => buf.subarray(offset, offset + length) };
}

/** Sniffs a file on disk, reading only what the checks need. */
export async function sniffFile(path: string): Promise<SniffResult> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await sniffMedia(fileSource(handle, size));
  } finally {
    await handle.close();
  }
}

function fileSource(handle: FileHandle, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      const len = Math.max(0, Math.min(length, size - offset));
      const buf = Buffer.alloc(len);
      if (len === 0) return buf;
      const { bytesRead } = await handle.read(buf, 0, len, offset);
      return buf.subarray(0, bytesRead);
    },
  };
}

const refuse = (reason: RefusalReason): SniffResult => ({ ok: false, reason });
const accept = (kind: MediaKind, ext: SniffedMedia['ext'], contentType: string): SniffResult => ({
  ok: true,
  media: { kind, ext, contentType },
});

export async function sniffMedia(src: ByteSource): Promise<SniffResult> {
  if (src.size === 0) return refuse('empty');
  const head = await src.read(0, 64);
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return sniffJpeg(src);
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return sniffPng(src);
  if (
    head.length >= 12 &&
    head.toString('latin1', 0, 4) === 'RIFF' &&
    head.toString('latin1', 8, 12) === 'AVI '
  )
    return sniffAvi(src, head);
  if (head.length >= 4 && head.readUInt32BE(0) === EBML_ID) return sniffMatroska(src);
  if (head.length >= 8 && ISO_FIRST_BOXES.has(head.toString('latin1', 4, 8))) return sniffIsoBmff(src);
  return refuse('not_media');
}

/**
 * A JPEG ends with EOI (FF D9). Some cameras pad the file after it, so trailing zero bytes are allowed; an
 * embedded EXIF thumbnail has its own EOI, which is why only the very end counts.
 */
async function sniffJpeg(src: ByteSource): Promise<SniffResult> {
  const tailLength = Math.min(src.size, 4096);
  const tail = await src.read(src.size - tailLength, tailLength);
  let end = tail.length;
  while (end > 0 && tail[end - 1] === 0x00) end -= 1;
  if (end < 2 || src.size < 4 || tail[end - 2] !== 0xff || tail[end - 1] !== 0xd9) return refuse('truncated');
  const size = await jpegSize(src);
  if (size && !withinPixelLimit(size.width, size.height)) return refuse('too_many_pixels');
  return accept('image', 'jpg', 'image/jpeg');
}

/** Segments walked at most looking for the frame header (EXIF, XMP, ICC and tables come before it). */
const MAX_JPEG_SEGMENTS = 64;

/**
 * The size in a JPEG's frame header (SOF0–SOF15, less DHT C4, JPG C8 and DAC CC), reading only the segment
 * headers on the way; undefined when there is none before the scan (the decoders still hold the limit).
 */
async function jpegSize(src: ByteSource): Promise<{ width: number; height: number } | undefined> {
  let at = 2;
  for (let i = 0; i < MAX_JPEG_SEGMENTS && at + 4 <= src.size; i++) {
    const head = await src.read(at, 9);
    if (head.length < 4 || head[0] !== 0xff) return undefined;
    const marker = head[1]!;
    if (marker === 0xff) {
      at += 1; // a fill byte before the marker
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a segment
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      // length (2), precision (1), height (2), width (2)
      return head.length >= 9 ? { height: head.readUInt16BE(5), width: head.readUInt16BE(7) } : undefined;
    at += 2 + head.readUInt16BE(2);
  }
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The IEND chunk: zero length, type, CRC. */
const PNG_IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

async function sniffPng(src: ByteSource): Promise<SniffResult> {
  if (src.size < PNG_SIGNATURE.length + PNG_IEND.length) return refuse('truncated');
  const tail = await src.read(src.size - PNG_IEND.length, PNG_IEND.length);
  if (!tail.equals(PNG_IEND)) return refuse('truncated');
  // IHDR comes first: length (4), type (4), width (4), height (4).
  const ihdr = await src.read(PNG_SIGNATURE.length, 16);
  if (ihdr.length === 16 && ihdr.toString('latin1', 4, 8) === 'IHDR') {
    if (!withinPixelLimit(ihdr.readUInt32BE(8), ihdr.readUInt32BE(12))) return refuse('too_many_pixels');
  }
  return accept('image', 'png', 'image/png');
}

/** RIFF size counts everything after its 8-byte header; a shorter file was cut off. */
async function sniffAvi(src: ByteSource, head: Buffer): Promise<SniffResult> {
  const riffSize = head.readUInt32LE(4);
  if (riffSize + 8 > src.size) return refuse('truncated');
  // The header list (`LIST....hdrl`) comes first; without it no player can read the streams.
  if (head.toString('latin1', 12, 16) !== 'LIST' || head.toString('latin1', 20, 24) !== 'hdrl')
    return refuse('not_media');
  return accept('video', 'avi', 'video/x-msvideo');
}

const EBML_ID = 0x1a45dfa3;
const EBML_DOCTYPE_ID = 0x4282;
const MATROSKA_SEGMENT_ID = 0x18538067;

/** An EBML variable-length integer at `at`: its length in bytes and value (`undefined` = "unknown size"). */
function readVint(
  buf: Buffer,
  at: number,
  keepMarker: boolean,
): { length: number; value: number | undefined } | null {
  const first = buf[at];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length += 1;
  if (length > 8 || at + length > buf.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = buf[at + i]!;
    if (b !== 0xff) allOnes = false;
    value = value * 256 + b;
  }
  return { length, value: !keepMarker && allOnes ? undefined : value };
}

async function sniffMatroska(src: ByteSource): Promise<SniffResult> {
  const head = await src.read(0, 4096);
  const headerSize = readVint(head, 4, false);
  if (!headerSize || headerSize.value === undefined) return refuse('not_media');
  const bodyStart = 4 + headerSize.length;
  const bodyEnd = bodyStart + headerSize.value;
  if (bodyEnd > head.length) return refuse(src.size < bodyEnd ? 'truncated' : 'not_media');
  // The DocType inside the EBML header: `matroska` (WebM carries VP8/VP9, which cameras do not send).
  let docType: string | undefined;
  for (let at = bodyStart; at < bodyEnd;) {
    const id = readVint(head, at, true);
    const size = id && readVint(head, at + id.length, false);
    if (!id || !size || size.value === undefined) return refuse('not_media');
    const dataAt = at + id.length + size.length;
    if (id.value === EBML_DOCTYPE_ID) docType = head.toString('latin1', dataAt, dataAt + size.value);
    at = dataAt + size.value;
  }
  if (docType !== 'matroska') return refuse('not_media');
  const segmentId = readVint(head, bodyEnd, true);
  if (!segmentId) return refuse('truncated');
  if (segmentId.value !== MATROSKA_SEGMENT_ID) return refuse('not_media');
  const segmentSize = readVint(head, bodyEnd + segmentId.length, false);
  if (!segmentSize) return refuse('truncated');
  // A recorder that could not seek back writes "unknown size"; then there is no end to check against.
  const segmentEnd = bodyEnd + segmentId.length + segmentSize.length + (segmentSize.value ?? 0);
  if (segmentSize.value !== undefined && segmentEnd > src.size) return refuse('truncated');
  return accept('video', 'mkv', 'video/x-matroska');
}

/** Boxes an MP4 or QuickTime file may start with. */
const ISO_FIRST_BOXES = new Set(['ftyp', 'wide', 'free', 'skip', 'mdat', 'moov']);
const VIDEO_CODECS = new Set(['avc1', 'avc3', 'hvc1', 'hev1']);
/** Containers inside `moov` on the way to the sample descriptions. */
const TRACK_PATH = ['trak', 'mdia', 'minf', 'stbl', 'stsd'];
/** `moov` holds only indexes; past this something is off, and it would be read into memory. */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

interface Box {
  type: string;
  start: number;
  headerSize: number;
  size: number;
}

async function sniffIsoBmff(src: ByteSource): Promise<SniffResult> {
  const top: Box[] = [];
  for (let at = 0; at < src.size;) {
    const header = await src.read(at, 16);
    if (header.length < 8) return refuse('truncated');
    let size = header.readUInt32BE(0);
    let headerSize = 8;
    if (size === 1) {
      if (header.length < 16) return refuse('truncated');
      size = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = src.size - at;
    }
    const type = header.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type) || size < headerSize)
      return refuse(top.length ? 'truncated' : 'not_media');
    if (at + size > src.size) return refuse('truncated');
    top.push({ type, start: at, headerSize, size });
    at += size;
  }
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) return refuse('truncated');
  if (!top.some((b) => b.type === 'mdat' || b.type === 'moof')) return refuse('truncated');
  if (moov.size > MAX_MOOV_BYTES) return refuse('not_media');

  const ftyp = top.find((b) => b.type === 'ftyp');
  let brand = '';
  if (ftyp) brand = (await src.read(ftyp.start + ftyp.headerSize, 4)).toString('latin1');
  const isQuickTime = brand === 'qt  ' || !ftyp;

  const moovBody = await src.read(moov.start + moov.headerSize, moov.size - moov.headerSize);
  const codecs = videoCodecs(moovBody);
  if (codecs.length === 0) return refuse('not_media');
  if (!codecs.some((c) => VIDEO_CODECS.has(c))) return refuse('unsupported_codec');
  return isQuickTime ? accept('video', 'mov', 'video/quicktime') : accept('video', 'mp4', 'video/mp4');
}

/** Child boxes of a box body (`buf` is the body; malformed children end the walk). */
function childBoxes(buf: Buffer): { type: string; body: Buffer }[] {
  const out: { type: string; body: Buffer }[] = [];
  for (let at = 0; at + 8 <= buf.length;) {
    let size = buf.readUInt32BE(at);
    let headerSize = 8;
    if (size === 1) {
      if (at + 16 > buf.length) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      headerSize = 16;
    } else if (size === 0) {
      size = buf.length - at;
    }
    if (size < headerSize || at + size > buf.length) break;
    out.push({
      type: buf.toString('latin1', at + 4, at + 8),
      body: buf.subarray(at + headerSize, at + size),
    });
    at += size;
  }
  return out;
}

/** The sample-entry formats of the video tracks (`vide` handler) in a `moov` body. */
function videoCodecs(moovBody: Buffer): string[] {
  const codecs: string[] = [];
  for (const trak of childBoxes(moovBody).filter((b) => b.type === 'trak')) {
    const mdia = childBoxes(trak.body).find((b) => b.type === TRACK_PATH[1]);
    if (!mdia) continue;
    const hdlr = childBoxes(mdia.body).find((b) => b.type === 'hdlr');
    // hdlr: version/flags (4), pre_defined (4), handler_type (4)
    if (!hdlr || hdlr.body.toString('latin1', 8, 12) !== 'vide') continue;
    let box: { type: string; body: Buffer } | undefined = mdia;
    for (const step of TRACK_PATH.slice(2)) box = box && childBoxes(box.body).find((b) => b.type === step);
    // stsd: version/flags (4), entry count (4), then sample entries (boxes named by their format)
    if (box) for (const entry of childBoxes(box.body.subarray(8))) codecs.push(entry.type);
  }
  return codecs;
}
