/**
 * What an RTSP DESCRIBE's SDP says about the video without decoding a frame (the phone has no ffprobe): the
 * codec from `a=rtpmap`, the size from `a=x-dimensions` or else the H.264 sequence parameter set in
 * `sprop-parameter-sets`, the frame rate from `a=framerate`.
 */
export interface SdpVideo {
  /** ffprobe's names, as the helper reports them: `h264`, `hevc`, `mjpeg`, else the rtpmap name lower-cased. */
  codec: string;
  width: number | null;
  height: number | null;
  fps: number | null;
}

const CODEC_NAMES: Record<string, string> = { h264: 'h264', h265: 'hevc', jpeg: 'mjpeg' };

/** The first video track of the SDP; null when it has none. */
export function sdpVideo(sdp: string): SdpVideo | null {
  const media = sdp.split(/\r?\n(?=m=)/).find((section) => section.startsWith('m=video'));
  if (!media) return null;
  const payload = /^m=video \d+ \S+ (\d+)/.exec(media)?.[1];
  const rtpmap = new RegExp(`^a=rtpmap:${payload} ([\\w.-]+)/`, 'm').exec(media)?.[1]?.toLowerCase();
  const codec = rtpmap ? (CODEC_NAMES[rtpmap] ?? rtpmap) : payload === '26' ? 'mjpeg' : 'unknown';
  const dimensions = /^a=x-dimensions:\s*(\d+),\s*(\d+)/m.exec(media);
  const sps = /sprop-parameter-sets=([A-Za-z0-9+/=]+)/.exec(media)?.[1];
  const size = dimensions
    ? { width: Number(dimensions[1]), height: Number(dimensions[2]) }
    : codec === 'h264' && sps
      ? h264Size(sps)
      : null;
  const framerate = /^a=framerate:\s*([\d.]+)/m.exec(media)?.[1];
  return {
    codec,
    width: size?.width ?? null,
    height: size?.height ?? null,
    fps: framerate ? Math.round(Number(framerate)) : null,
  };
}

/** The picture size an H.264 SPS (base64, without start code) declares; null when it cannot be read. */
export function h264Size(spsBase64: string): { width: number; height: number } | null {
  try {
    const bytes = unescapeRbsp(Uint8Array.from(atob(spsBase64), (char) => char.charCodeAt(0)));
    const bits = bitReader(bytes);
    bits.skip(8); // NAL header
    const profile = bits.read(8);
    bits.skip(16); // constraint flags, level
    bits.ue(); // seq_parameter_set_id
    let chromaFormat = 1;
    if ([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].includes(profile)) {
      chromaFormat = bits.ue();
      if (chromaFormat === 3) bits.skip(1);
      bits.ue();
      bits.ue();
      bits.skip(1);
      if (bits.read(1)) {
        for (let i = 0; i < (chromaFormat === 3 ? 12 : 8); i++) {
          if (bits.read(1)) skipScalingList(bits, i < 6 ? 16 : 64);
        }
      }
    }
    bits.ue(); // log2_max_frame_num
    const pocType = bits.ue();
    if (pocType === 0) bits.ue();
    else if (pocType === 1) {
      bits.skip(1);
      bits.se();
      bits.se();
      const cycle = bits.ue();
      for (let i = 0; i < cycle; i++) bits.se();
    }
    bits.ue(); // max_num_ref_frames
    bits.skip(1);
    const widthMbs = bits.ue() + 1;
    const heightMapUnits = bits.ue() + 1;
    const frameMbsOnly = bits.read(1);
    if (!frameMbsOnly) bits.skip(1);
    bits.skip(1);
    let crop = { left: 0, right: 0, top: 0, bottom: 0 };
    if (bits.read(1)) crop = { left: bits.ue(), right: bits.ue(), top: bits.ue(), bottom: bits.ue() };
    const cropX = chromaFormat === 0 || chromaFormat === 3 ? 1 : 2;
    const cropY = (chromaFormat === 1 ? 2 : 1) * (2 - frameMbsOnly);
    const width = widthMbs * 16 - (crop.left + crop.right) * cropX;
    const height = (2 - frameMbsOnly) * heightMapUnits * 16 - (crop.top + crop.bottom) * cropY;
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}

function skipScalingList(bits: ReturnType<typeof bitReader>, size: number) {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + bits.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** Drops the emulation-prevention bytes (00 00 03 → 00 00). */
function unescapeRbsp(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (i >= 2 && bytes[i] === 3 && bytes[i - 1] === 0 && bytes[i - 2] === 0) continue;
    out.push(bytes[i]!);
  }
  return Uint8Array.from(out);
}

function bitReader(bytes: Uint8Array) {
  let position = 0;
  const bit = () => {
    if (position >= bytes.length * 8) throw new RangeError('SPS ends early');
    const value = (bytes[position >> 3]! >> (7 - (position & 7))) & 1;
    position += 1;
    return value;
  };
  const read = (count: number) => {
    let value = 0;
    for (let i = 0; i < count; i++) value = value * 2 + bit();
    return value;
  };
  const ue = () => {
    let zeros = 0;
    while (bit() === 0) {
      zeros += 1;
      if (zeros > 31) throw new RangeError('SPS has a broken Exp-Golomb code');
    }
    return 2 ** zeros - 1 + read(zeros);
  };
  return {
    read,
    skip: (count: number) => void read(count),
    ue,
    se: () => {
      const value = ue();
      return value % 2 ? (value + 1) / 2 : -value / 2;
    },
  };
}
