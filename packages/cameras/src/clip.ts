import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { inspectFragment, parseInit, type InitSegment } from './mp4.js';
import type { Fragment } from './types.js';

/**
 * Turns fragments of the main stream into the files the pipeline takes: an MP4 clip (stream copy, moov at
 * the front) and a JPEG of the newest frame.
 */

/** Runs ffmpeg to the end; answers its stdout, rejects with the tail of its stderr. */
export function runFfmpeg(ffmpegPath: string, args: string[], stdin?: Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const proc = spawn(ffmpegPath, ['-hide_banner', '-loglevel', 'error', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-2000)));
    proc.once('error', reject);
    proc.once('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg failed (${signal ?? `code ${code}`}): ${stderr.trim() || 'no message'}`));
    });
    // ffmpeg may stop reading once it has what it needs: a broken pipe then is no failure.
    proc.stdin.on('error', () => {});
    for (const data of stdin ?? []) proc.stdin.write(data);
    proc.stdin.end();
  });
}

function asInit(init: InitSegment | Buffer): InitSegment {
  return Buffer.isBuffer(init) ? parseInit(init) : init;
}

export interface ClipWriterOptions {
  ffmpegPath: string;
  /** Where the fragmented file and the MP4 are written. */
  tmpDir: string;
  init: InitSegment | Buffer;
}

/** A clip being recorded: fragments go to a file as they come, so a long clip costs no memory. */
export interface ClipWriter {
  write(fragment: Fragment): void;
  /** Media time written so far (ms). */
  durationMs(): number;
  /** Arrival time of the first fragment written, undefined before one. */
  startedAt(): number | undefined;
  /**
   * Closes the file and remuxes it into an MP4 (faststart), which the caller owns. With `before`, a fragment
   * already written, the clip ends just ahead of it (a cut at a keyframe after the fact).
   */
  finish(before?: Fragment): Promise<WrittenClip>;
  /** Throws the recording away. */
  abort(): Promise<void>;
}

export interface WrittenClip {
  path: string;
  /** Arrival times (ms since epoch) of the first and the last fragment in it. */
  startedAt: number;
  endedAt: number;
}

export function createClipWriter({ ffmpegPath, tmpDir, init }: ClipWriterOptions): ClipWriter {
  const id = randomUUID();
  const fragmentedPath = join(tmpDir, `clip-${id}.fmp4`);
  const outPath = join(tmpDir, `clip-${id}.mp4`);
  const file = createWriteStream(fragmentedPath);
  let writeError: Error | undefined;
  file.on('error', (err) => (writeError ??= err));
  const initData = asInit(init).data;
  file.write(initData);
  let bytes = initData.length;
  let duration = 0;
  let closed = false;
  /** Where each fragment starts in the file, for a cut after the fact. */
  const written: { fragment: Fragment; offset: number }[] = [];

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    file.end();
    await finished(file).catch((err: Error) => (writeError ??= err));
  }

  return {
    write(fragment) {
      if (closed) return;
      file.write(fragment.data);
      written.push({ fragment, offset: bytes });
      bytes += fragment.data.length;
      duration += fragment.durationMs;
    },
    durationMs: () => duration,
    startedAt: () => written[0]?.fragment.receivedAt,
    async finish(before) {
      await close();
      try {
        if (writeError) throw writeError;
        let kept = written.length;
        if (before) {
          const cut = written.findIndex((w) => w.fragment === before);
          if (cut >= 0) {
            kept = cut;
            await truncate(fragmentedPath, written[cut]!.offset);
          }
        }
        if (kept === 0) throw new Error('the clip has no fragment');
        await runFfmpeg(ffmpegPath, [
          '-y',
          '-i',
          fragmentedPath,
          '-map',
          '0',
          '-c',
          'copy',
          '-movflags',
          '+faststart',
          outPath,
        ]);
        return {
          path: outPath,
          startedAt: written[0]!.fragment.receivedAt,
          endedAt: written[kept - 1]!.fragment.receivedAt,
        };
      } catch (err) {
        await rm(outPath, { force: true });
        throw err;
      } finally {
        await rm(fragmentedPath, { force: true });
      }
    },
    async abort() {
      await close();
      await rm(fragmentedPath, { force: true });
    },
  };
}

/** Writes fragments (starting at a keyframe) as an MP4 clip in `tmpDir`; answers its path. */
export async function writeClip(options: ClipWriterOptions & { fragments: Fragment[] }): Promise<string> {
  const writer = createClipWriter(options);
  for (const fragment of options.fragments) writer.write(fragment);
  return (await writer.finish()).path;
}

export interface FrameJpegOptions {
  ffmpegPath: string;
  init: InitSegment | Buffer;
  /** Fragments from a keyframe on; the JPEG shows the last frame among them. */
  fragments: Fragment[];
  /** ffmpeg's `-q:v`, 2 (best) to 31 (default 3). */
  quality?: number;
}

/** A JPEG of the newest frame, at the stream's resolution: decodes from the keyframe, encodes only the last. */
export async function frameJpeg({
  ffmpegPath,
  init,
  fragments,
  quality = 3,
}: FrameJpegOptions): Promise<Buffer> {
  const segment = asInit(init);
  const first = fragments.findIndex((f) => f.keyframe);
  if (first < 0) throw new Error('no keyframe among the fragments: nothing to decode');
  const decodable = fragments.slice(first);
  let frames = 0;
  for (const fragment of decodable) frames += inspectFragment(fragment.data, segment).videoSamples;
  if (frames === 0) throw new Error('the fragments hold no video frame');
  const jpeg = await runFfmpeg(
    ffmpegPath,
    [
      '-f',
      'mp4',
      '-i',
      'pipe:0',
      '-map',
      '0:v:0',
      '-vf',
      `select=gte(n\\,${frames - 1})`,
      '-vsync',
      '0',
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      String(quality),
      '-f',
      'image2pipe',
      'pipe:1',
    ],
    [segment.data, ...decodable.map((f) => f.data)],
  );
  if (jpeg.length === 0) throw new Error('ffmpeg decoded no frame from the fragments');
  return jpeg;
}
