import type { Readable } from 'node:stream';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { Logger } from '../../platform/logger.js';
import { MediaToolMissingError, UnreadableClipError } from '../media/media.module.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { ActivityFrames, LoadedFrames } from './analysis.service.js';

export interface ActivityFramesDeps {
  storage: Pick<ObjectStorage, 'get'>;
  /** `count` JPEG frames spread over a clip (modules/media/frames.ts). */
  extractFrames(video: Buffer, count: number): Promise<Buffer[]>;
  /** Nothing larger is read (the ingest never stores larger: INGEST_MAX_BYTES). */
  maxBytes: number;
  /** ffmpeg cannot run: the activity is looked at through its poster if it has one (warned once, not per clip). */
  onToolMissing: (err: MediaToolMissingError) => void;
  log: Logger;
}

/** Snapshots looked at per event: the first, the middle and the last tell the story. */
export const MAX_SNAPSHOTS = 3;

/**
 * Frames of a clip by its length: 3 up to 10.5 s (a typical motion clip), 4 up to 20 s, 5 beyond (or when the
 * length is unknown). Each frame costs an object pass (a few hundred ms on two cores).
 */
export function clipFrameCount(durationSeconds: number | null): number {
  if (durationSeconds !== null && durationSeconds <= 10.5) return 3;
  if (durationSeconds !== null && durationSeconds <= 20) return 4;
  return 5;
}

export function pickSnapshots(keys: string[], max = MAX_SNAPSHOTS): string[] {
  if (keys.length <= max) return keys;
  const picked = new Set<string>();
  for (let i = 0; i < max; i++) picked.add(keys[Math.round((i * (keys.length - 1)) / (max - 1))]!);
  return [...picked];
}

async function readAll(body: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** The frames the vision engine looks at for an activity: its snapshots, or a few frames of its clip. */
export function createActivityFrames(deps: ActivityFramesDeps): ActivityFrames {
  const { storage, log } = deps;

  async function read(key: string): Promise<Buffer | undefined> {
    const object = await storage.get(key);
    if (!object) return undefined;
    const bytes = await readAll(object.body, deps.maxBytes);
    if (!bytes) log.warn({ key }, 'activity media larger than the ingest allows: not analysed');
    return bytes;
  }

  async function clipFrames(a: ActivityRow, videoKey: string): Promise<LoadedFrames> {
    const clip = await read(videoKey);
    if (clip)
      try {
        return { frames: await deps.extractFrames(clip, clipFrameCount(a.durationSeconds)), clip: true };
      } catch (err) {
        if (err instanceof MediaToolMissingError) deps.onToolMissing(err);
        else if (err instanceof UnreadableClipError)
          log.warn({ err, activityId: a.id }, 'no frames could be read from the clip; looking at its poster');
        else throw err;
      }
    // The poster was cut from the clip when it arrived; it still shows the moment.
    const poster = a.thumbnailKey ? await read(a.thumbnailKey) : undefined;
    return { frames: poster ? [poster] : [], clip: false };
  }

  return {
    async load(a) {
      if (a.videoKey) return clipFrames(a, a.videoKey);
      const frames = await Promise.all(pickSnapshots(a.imageKeys).map(read));
      return { frames: frames.filter((f): f is Buffer => f !== undefined), clip: false };
    },
  };
}
