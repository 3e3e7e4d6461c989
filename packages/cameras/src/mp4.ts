import type { Fragment } from './types.js';

/**
 * An incremental reader for the fragmented MP4 that ffmpeg writes to a pipe (`-movflags
 * frag_keyframe+empty_moov+default_base_moof`): ftyp + moov make the init segment, then moof + mdat pairs
 * make the fragments. Only the boxes needed to tell a keyframe, a duration and the MSE codec string are
 * parsed; everything else passes through untouched.
 */

export class Mp4Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Mp4Error';
  }
}

export interface TrackInfo {
  id: number;
  kind: 'video' | 'audio' | 'other';
  /** Units per second of the track's media times. */
  timescale: number;
  /** RFC 6381 codec name for MSE: `avc1.64001f`, `mp4a.40.2`, or the sample entry's type when unknown. */
  codec: string;
  width?: number;
  height?: number;
  /** From `trex`: what a fragment's samples default to when neither tfhd nor trun says. */
  defaultSampleDuration: number;
  defaultSampleFlags: number;
}

export interface InitSegment {
  /** ftyp + moov, as ffmpeg wrote them: what a decoder or a MediaSource gets first. */
  data: Buffer;
  tracks: TrackInfo[];
  /** `video/mp4; codecs="avc1.64001f,mp4a.40.2"`. */
  mimeType: string;
}

export interface FragmentInfo {
  keyframe: boolean;
  /** The duration of the video samples (of the first track when there is no video); 0 when unknown. */
  durationMs: number;
  /** How many video samples (frames) the fragment carries. */
  videoSamples: number;
}

export type Mp4Event = { type: 'init'; init: InitSegment } | { type: 'fragment'; fragment: Fragment };

export interface Mp4Reader {
  /** Feeds bytes as they come off the pipe; answers what became complete. Throws `Mp4Error` on garbage. */
  push(chunk: Buffer, now?: number): Mp4Event[];
  /** Bytes held back waiting for the rest of a box. */
  buffered(): number;
}

/** Refuse boxes larger than this: a corrupt size field would otherwise make us buffer forever. */
const MAX_BOX_BYTES = 256 * 1024 * 1024;

const SAMPLE_IS_NON_SYNC = 0x10000;

/** ISO/IEC 14496-12 sample flags: a sync sample that does not depend on others. */
export function isSyncSample(flags: number): boolean {
  const dependsOn = (flags >>> 24) & 0x3;
  return (flags & SAMPLE_IS_NON_SYNC) === 0 && dependsOn !== 1;
}

export function createMp4Reader(): Mp4Reader {
  const chunks: Buffer[] = [];
  let length = 0;
  let offset = 0;
  let initParts: Buffer[] = [];
  let init: InitSegment | undefined;
  let moof: Buffer | undefined;
  let sequence = 0;

  function peek(n: number): Buffer {
    const first = chunks[0];
    if (first && first.length >= n) return first.subarray(0, n);
    return Buffer.concat(chunks, n);
  }

  function take(n: number): Buffer {
    const first = chunks[0];
    let out: Buffer;
    if (first && first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) chunks.shift();
      else chunks[0] = first.subarray(n);
    } else {
      const parts: Buffer[] = [];
      let need = n;
      while (need > 0) {
        const chunk = chunks[0]!;
        if (chunk.length <= need) {
          parts.push(chunk);
          chunks.shift();
          need -= chunk.length;
        } else {
          parts.push(chunk.subarray(0, need));
          chunks[0] = chunk.subarray(need);
          need = 0;
        }
      }
      out = Buffer.concat(parts, n);
    }
    length -= n;
    offset += n;
    return out;
  }

  /** The size of the box at the head, or undefined until enough of its header is here. */
  function headSize(): number | undefined {
    if (length < 8) return undefined;
    const header = peek(Math.min(length, 16));
    const size32 = header.readUInt32BE(0);
    const type = header.subarray(4, 8);
    if (!TOP_LEVEL_BOXES.has(type.toString('latin1'))) {
      const shown = isPrintable(type) ? `'${type.toString('latin1')}'` : `0x${type.toString('hex')}`;
      throw new Mp4Error(`not a fragmented MP4 stream: unexpected box type ${shown} at byte ${offset}`);
    }
    let size = size32;
    if (size32 === 1) {
      if (header.length < 16) return undefined;
      const big = header.readBigUInt64BE(8);
      if (big > BigInt(MAX_BOX_BYTES)) throw tooLarge(type, offset);
      size = Number(big);
      if (size < 16)
        throw new Mp4Error(
          `not a fragmented MP4 stream: bad 64-bit size ${size} of box '${type.toString('latin1')}'`,
        );
    } else if (size32 === 0) {
      throw new Mp4Error(
        `box '${type.toString('latin1')}' runs to the end of the file: not a streamable MP4`,
      );
    } else if (size32 < 8) {
      throw new Mp4Error(
        `not a fragmented MP4 stream: bad size ${size32} of box '${type.toString('latin1')}' at byte ${offset}`,
      );
    }
    if (size > MAX_BOX_BYTES) throw tooLarge(type, offset);
    return size;
  }

  return {
    buffered: () => length,
    push(chunk, now = Date.now()) {
      if (chunk.length > 0) {
        chunks.push(chunk);
        length += chunk.length;
      }
      const events: Mp4Event[] = [];
      for (;;) {
        const size = headSize();
        if (size === undefined || size > length) break;
        const box = take(size);
        const type = box.toString('latin1', 4, 8);
        switch (type) {
          case 'ftyp':
            initParts = [box];
            moof = undefined;
            break;
          case 'moov':
            initParts.push(box);
            init = parseInit(Buffer.concat(initParts));
            initParts = [];
            moof = undefined;
            sequence = 0;
            events.push({ type: 'init', init });
            break;
          case 'moof':
            if (!init) throw new Mp4Error('a fragment (moof) came before the init segment (moov)');
            moof = box;
            break;
          case 'mdat': {
            if (!moof || !init) break;
            const data = Buffer.concat([moof, box]);
            moof = undefined;
            const info = inspectFragment(data, init);
            events.push({
              type: 'fragment',
              fragment: {
                data,
                keyframe: info.keyframe,
                durationMs: info.durationMs,
                receivedAt: now,
                sequence: sequence++,
              },
            });
            break;
          }
          default:
            // free, skip, styp, sidx, prft, mfra…: nothing a viewer or a clip needs.
            break;
        }
      }
      return events;
    },
  };
}

function tooLarge(type: Buffer, offset: number): Mp4Error {
  return new Mp4Error(
    `box '${type.toString('latin1')}' at byte ${offset} is larger than ${MAX_BOX_BYTES} bytes`,
  );
}

/** What ISO-BMFF allows at the top level; anything else means we are not reading MP4 (an error page, noise). */
// prettier-ignore
const TOP_LEVEL_BOXES = new Set([
  'ftyp', 'styp', 'moov', 'moof', 'mdat', 'free', 'skip', 'sidx', 'ssix', 'prft', 'emsg', 'mfra', 'meta', 'uuid',
  'pdin', 'wide', 'jumb',
]);

function isPrintable(type: Buffer): boolean {
  return type.every((byte) => byte >= 0x20 && byte <= 0x7e);
}

interface Box {
  type: string;
  /** Where the payload starts (after size, type and any 64-bit size). */
  body: number;
  end: number;
}

function* children(buf: Buffer, start: number, end: number): Generator<Box> {
  let at = start;
  while (at + 8 <= end) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) throw new Mp4Error(`truncated box '${type}'`);
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) throw new Mp4Error(`box '${type}' overruns its parent`);
    yield { type, body: at + header, end: at + size };
    at += size;
  }
}

function child(buf: Buffer, parent: Box, type: string): Box | undefined {
  for (const box of children(buf, parent.body, parent.end)) if (box.type === type) return box;
  return undefined;
}

function path(buf: Buffer, parent: Box, ...types: string[]): Box | undefined {
  let box: Box | undefined = parent;
  for (const type of types) {
    if (!box) return undefined;
    box = child(buf, box, type);
  }
  return box;
}

function topLevel(buf: Buffer, type: string): Box | undefined {
  for (const box of children(buf, 0, buf.length)) if (box.type === type) return box;
  return undefined;
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}

/** Reads what the tracks are from an init segment (ftyp + moov). */
export function parseInit(data: Buffer): InitSegment {
  try {
    const moov = topLevel(data, 'moov');
    if (!moov) throw new Mp4Error('the init segment has no moov box');
    const trex = new Map<number, { duration: number; flags: number }>();
    const mvex = child(data, moov, 'mvex');
    if (mvex) {
      for (const box of children(data, mvex.body, mvex.end)) {
        if (box.type !== 'trex') continue;
        trex.set(data.readUInt32BE(box.body + 4), {
          duration: data.readUInt32BE(box.body + 12),
          flags: data.readUInt32BE(box.body + 20),
        });
      }
    }
    const tracks: TrackInfo[] = [];
    for (const trak of children(data, moov.body, moov.end)) {
      if (trak.type !== 'trak') continue;
      const tkhd = child(data, trak, 'tkhd');
      const mdhd = path(data, trak, 'mdia', 'mdhd');
      const hdlr = path(data, trak, 'mdia', 'hdlr');
      const stsd = path(data, trak, 'mdia', 'minf', 'stbl', 'stsd');
      if (!tkhd || !mdhd || !hdlr || !stsd) throw new Mp4Error('a track misses tkhd, mdhd, hdlr or stsd');
      const id = data.readUInt32BE(tkhd.body + (data[tkhd.body] === 1 ? 20 : 12));
      const timescale = data.readUInt32BE(mdhd.body + (data[mdhd.body] === 1 ? 20 : 12));
      const handler = data.toString('latin1', hdlr.body + 8, hdlr.body + 12);
      const kind = handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : 'other';
      const entry = children(data, stsd.body + 8, stsd.end).next().value as Box | undefined;
      const defaults = trex.get(id) ?? { duration: 0, flags: 0 };
      const track: TrackInfo = {
        id,
        kind,
        timescale,
        codec: entry?.type.trim() ?? 'unknown',
        defaultSampleDuration: defaults.duration,
        defaultSampleFlags: defaults.flags,
      };
      if (entry && kind === 'video') describeVideo(data, entry, track);
      if (entry && kind === 'audio') describeAudio(data, entry, track);
      tracks.push(track);
    }
    return { data, tracks, mimeType: mimeTypeOf(tracks) };
  } catch (err) {
    if (err instanceof Mp4Error) throw err;
    throw new Mp4Error(`unreadable init segment: ${(err as Error).message}`);
  }
}

/** VisualSampleEntry: 8 bytes of SampleEntry, 16 reserved, then width and height; boxes after 78 bytes. */
function describeVideo(data: Buffer, entry: Box, track: TrackInfo): void {
  track.width = data.readUInt16BE(entry.body + 24);
  track.height = data.readUInt16BE(entry.body + 26);
  const config = children(data, entry.body + 78, entry.end);
  for (const box of config) {
    if (box.type === 'avcC') {
      const [profile, compat, level] = [data[box.body + 1]!, data[box.body + 2]!, data[box.body + 3]!];
      track.codec = `${entry.type}.${hex2(profile)}${hex2(compat)}${hex2(level)}`;
    }
  }
}

/** AudioSampleEntry: 8 bytes of SampleEntry, 20 of sound description (v0), then boxes (esds). */
function describeAudio(data: Buffer, entry: Box, track: TrackInfo): void {
  if (entry.type !== 'mp4a') {
    track.codec = entry.type.trim().toLowerCase();
    return;
  }
  const soundVersion = data.readUInt16BE(entry.body + 8);
  const boxesAt = entry.body + 28 + (soundVersion === 1 ? 16 : soundVersion === 2 ? 36 : 0);
  for (const box of children(data, boxesAt, entry.end)) {
    if (box.type === 'esds') {
      track.codec = esdsCodec(data, box.body + 4, box.end) ?? 'mp4a.40.2';
    }
  }
}

/** Walks the ES_Descriptor to the DecoderConfigDescriptor (object type) and the AudioSpecificConfig. */
function esdsCodec(data: Buffer, start: number, end: number): string | undefined {
  let at = start;
  const descriptor = (): { tag: number; body: number; end: number } | undefined => {
    if (at + 2 > end) return undefined;
    const tag = data[at++]!;
    let size = 0;
    for (let i = 0; i < 4; i++) {
      const byte = data[at++]!;
      size = (size << 7) | (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    return { tag, body: at, end: at + size };
  };
  const es = descriptor();
  if (!es || es.tag !== 0x03) return undefined;
  at = es.body + 2;
  const flags = data[at++]!;
  if (flags & 0x80) at += 2;
  if (flags & 0x40) at += 1 + data[at]!;
  if (flags & 0x20) at += 2;
  const config = descriptor();
  if (!config || config.tag !== 0x04) return undefined;
  const objectType = data[config.body]!;
  if (objectType !== 0x40) return `mp4a.${hex2(objectType)}`;
  at = config.body + 13;
  const specific = descriptor();
  if (!specific || specific.tag !== 0x05) return 'mp4a.40.2';
  let audioObjectType = data[specific.body]! >> 3;
  if (audioObjectType === 31) {
    audioObjectType = 32 + (((data[specific.body]! & 0x07) << 3) | (data[specific.body + 1]! >> 5));
  }
  return `mp4a.40.${audioObjectType}`;
}

function mimeTypeOf(tracks: TrackInfo[]): string {
  const media = tracks.filter((t) => t.kind !== 'other');
  const container = media.some((t) => t.kind === 'video') ? 'video/mp4' : 'audio/mp4';
  return `${container}; codecs="${media.map((t) => t.codec).join(',')}"`;
}

/** The MSE mime type of an init segment, e.g. `video/mp4; codecs="avc1.64001f,mp4a.40.2"`. */
export function codecString(init: Buffer | InitSegment): string {
  return (Buffer.isBuffer(init) ? parseInit(init) : init).mimeType;
}

/** Keyframe, duration and frame count of one moof + mdat pair. */
export function inspectFragment(data: Buffer, init: InitSegment): FragmentInfo {
  const moof = topLevel(data, 'moof');
  if (!moof) throw new Mp4Error('a fragment without moof');
  const main = init.tracks.find((t) => t.kind === 'video') ?? init.tracks[0];
  let sawMain = false;
  let keyframe = false;
  let duration = 0;
  let samples = 0;
  for (const traf of children(data, moof.body, moof.end)) {
    if (traf.type !== 'traf') continue;
    const tfhd = child(data, traf, 'tfhd');
    if (!tfhd) throw new Mp4Error('a traf without tfhd');
    const tfhdFlags = data.readUInt32BE(tfhd.body) & 0xffffff;
    const trackId = data.readUInt32BE(tfhd.body + 4);
    if (!main || trackId !== main.id) continue;
    let at = tfhd.body + 8;
    if (tfhdFlags & 0x1) at += 8;
    if (tfhdFlags & 0x2) at += 4;
    let defaultDuration = main.defaultSampleDuration;
    let defaultFlags = main.defaultSampleFlags;
    if (tfhdFlags & 0x8) defaultDuration = data.readUInt32BE((at += 4) - 4);
    if (tfhdFlags & 0x10) at += 4;
    if (tfhdFlags & 0x20) defaultFlags = data.readUInt32BE(at);
    for (const trun of children(data, traf.body, traf.end)) {
      if (trun.type !== 'trun') continue;
      const flags = data.readUInt32BE(trun.body) & 0xffffff;
      const count = data.readUInt32BE(trun.body + 4);
      let p = trun.body + 8;
      if (flags & 0x1) p += 4;
      let firstFlags: number | undefined;
      if (flags & 0x4) {
        firstFlags = data.readUInt32BE(p);
        p += 4;
      }
      const stride =
        (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
      if (p + stride * count > trun.end) throw new Mp4Error('a trun overruns its box');
      for (let i = 0; i < count; i++, p += stride) {
        duration += flags & 0x100 ? data.readUInt32BE(p) : defaultDuration;
        if (!sawMain && i === 0) {
          let sampleFlags = firstFlags ?? defaultFlags;
          if (firstFlags === undefined && flags & 0x400) {
            sampleFlags = data.readUInt32BE(p + (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0));
          }
          keyframe = main.kind === 'video' ? isSyncSample(sampleFlags) : true;
          sawMain = true;
        }
      }
      samples += count;
    }
  }
  return {
    keyframe,
    durationMs: main && main.timescale > 0 ? (duration * 1000) / main.timescale : 0,
    videoSamples: main?.kind === 'video' ? samples : 0,
  };
}
