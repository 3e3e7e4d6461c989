import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FFMPEG } from './clips.js';

/** Whether ffmpeg can encode HEVC (libx265); HEIC tests need it to make their photo. */
export function canEncodeHevc(): boolean {
  const r = spawnSync(FFMPEG, ['-hide_banner', '-encoders'], {
    encoding: 'utf8',
  });
  return r.status === 0 && r.stdout.includes('libx265');
}

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const fullBox = (type: string, version: number, flags: number, ...parts: Buffer[]) => {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff));
  return box(type, vf, ...parts);
};
const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** Splits an Annex B stream (00 00 01 / 00 00 00 01 start codes) into NAL units. */
function nalUnits(stream: Buffer): Buffer[] {
  const starts: { at: number; len: number }[] = [];
  for (let i = 0; i + 3 <= stream.length; i += 1) {
    if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) {
      starts.push({ at: i + 3, len: 3 });
      i += 2;
    }
  }
  return starts.map((s, k) => {
    let end = k + 1 < starts.length ? starts[k + 1]!.at - 3 : stream.length;
    while (end > s.at && stream[end - 1] === 0) end -= 1;
    return stream.subarray(s.at, end);
  });
}

const nalType = (nal: Buffer) => (nal[0]! >> 1) & 0x3f;

function withoutEmulationPrevention(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i += 1) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    out.push(nal[i]!);
  }
  return Buffer.from(out);
}

/**
 * A real HEIC photo (HEVC-coded image item in a HEIF container), `width`×`height`, one colour: ffmpeg's
 * libx265 encodes the frame, and the container (ftyp, meta with hdlr/pitm/iloc/iinf/iprp, mdat) is written
 * here as ISO/IEC 23008-12 lays it out.
 */
export function makeHeic(width = 64, height = 64, colour = 'red'): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'hs-heic-'));
  try {
    const out = join(dir, 'frame.hevc');
    const r = spawnSync(
      FFMPEG,
      [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        `color=c=${colour}:s=${width}x${height}`,
        '-frames:v',
        '1',
        '-c:v',
        'libx265',
        '-pix_fmt',
        'yuv420p',
        '-x265-params',
        'log-level=error',
        '-f',
        'hevc',
        out,
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
    const nals = nalUnits(readFileSync(out));
    const vps = nals.find((n) => nalType(n) === 32)!;
    const sps = nals.find((n) => nalType(n) === 33)!;
    const pps = nals.find((n) => nalType(n) === 34)!;
    const slices = nals.filter((n) => nalType(n) < 32);
    // profile_tier_level of the SPS: after the 2-byte NAL header and one byte of ids/flags, 12 bytes.
    const ptl = withoutEmulationPrevention(sps).subarray(3, 15);
    const array = (type: number, nal: Buffer) =>
      Buffer.concat([u8(0x80 | type), u16(1), u16(nal.length), nal]);
    const hvcC = box(
      'hvcC',
      u8(1),
      ptl.subarray(0, 12),
      u16(0xf000),
      u8(0xfc),
      u8(0xfd),
      u8(0xf8),
      u8(0xf8),
      u16(0),
      u8(0x0f),
      u8(3),
      array(32, vps),
      array(33, sps),
      array(34, pps),
    );
    const data = Buffer.concat(slices.flatMap((n) => [u32(n.length), n]));
    const ftyp = box('ftyp', Buffer.from('heic'), u32(0), Buffer.from('mif1heic'));
    const meta = (dataOffset: number) =>
      fullBox(
        'meta',
        0,
        0,
        fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict'), u32(0), u32(0), u32(0), u8(0)),
        fullBox('pitm', 0, 0, u16(1)),
        fullBox(
          'iloc',
          0,
          0,
          u8(0x44),
          u8(0x00),
          u16(1),
          u16(1),
          u16(0),
          u16(1),
          u32(dataOffset),
          u32(data.length),
        ),
        fullBox('iinf', 0, 0, u16(1), fullBox('infe', 2, 0, u16(1), u16(0), Buffer.from('hvc1'), u8(0))),
        box(
          'iprp',
          box('ipco', hvcC, fullBox('ispe', 0, 0, u32(width), u32(height))),
          fullBox('ipma', 0, 0, u32(1), u16(1), u8(2), u8(0x81), u8(0x02)),
        ),
      );
    const metaLength = meta(0).length;
    const dataOffset = ftyp.length + metaLength + 8;
    return Buffer.concat([ftyp, meta(dataOffset), box('mdat', data)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
