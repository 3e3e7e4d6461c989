import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { contentTypeOfKey, type ObjectStorage } from '../../adapters/storage/storage.js';
import type { ClipInfo, Ffmpeg } from '../media/ffmpeg.js';
import { MediaToolMissingError } from '../media/media.module.js';
import { thumbnailOf } from '../media/media.module.js';
import { userMediaPrefix } from '../media/media.module.js';
import type { UploadRow } from './activities.repository.js';

/** Where an activity's files live; deleting the activity deletes this folder. */
export const activityMediaPrefix = (userId: string, activityId: string) =>
  `${userMediaPrefix(userId)}/activities/${activityId}`;

/** The media one upload adds to an activity, already on storage. */
export interface PreparedMedia {
  /** `none`: an upload without media (a Nest event whose picture had expired) adds no file. */
  kind: 'image' | 'video' | 'none';
  /** Every object written, so a run that does not commit can take them back. */
  keys: string[];
  /** The original snapshot, kept as the activity's full-size image. */
  imageKey?: string;
  /** Snapshot thumbnail (WebP) or clip poster (JPEG); made only when the activity has none yet. */
  thumbnailKey?: string;
  /** The original clip, kept for download. */
  videoKey?: string;
  /** The clip's HLS playlist; its segments are beside it. */
  hlsKey?: string;
  width?: number;
  height?: number;
  durationSeconds?: number | null;
  /** Whether the clip had to be re-encoded for HLS (H.265, MJPEG…). */
  transcoded?: boolean;
}

/** An upload with bytes (every one but an event without media). */
type StoredUpload = UploadRow & { storageKey: string; contentType: string };

/** The upload's bytes are gone from storage: nothing can be made of it, now or on a retry. */
export class MissingUploadError extends Error {}

export interface ActivityMediaDeps {
  storage: ObjectStorage;
  ffmpeg: Ffmpeg;
  /**
   * ffmpeg or ffprobe cannot run: the clip is kept as it came, without poster or HLS (an activity the user
   * can still play and download, marked "processing unavailable"), and the tools report it once.
   */
  onToolMissing: (err: MediaToolMissingError) => void;
  /** Folder for the clip and its HLS while they are made (default: the OS temp folder). */
  tmpRoot?: string;
}

/** The extension the ingest gave the stored upload (it names files by their sniffed type). */
function extensionOf(key: string): string {
  return /\.([a-z0-9]{2,5})$/i.exec(key)?.[1]?.toLowerCase() ?? 'bin';
}

async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Makes an activity's media from one upload: for a snapshot its thumbnail and size (the original is kept as
 * it came), for a clip its poster, size, duration and HLS (the original kept for download). Every key
 * carries a fresh token, so two runs of one upload (a retried or duplicated job) never write over each other
 * and the loser can delete exactly its own files.
 */
export function createActivityMedia(deps: ActivityMediaDeps) {
  const { storage, ffmpeg } = deps;
  const tmpRoot = deps.tmpRoot ?? tmpdir();

  async function fetchUpload(upload: StoredUpload) {
    const object = await storage.get(upload.storageKey);
    if (!object) throw new MissingUploadError(`upload ${upload.id} has no bytes at ${upload.storageKey}`);
    return object;
  }

  async function prepareImage(
    upload: StoredUpload,
    prefix: string,
    token: string,
    needThumbnail: boolean,
  ): Promise<PreparedMedia> {
    const bytes = await readAll((await fetchUpload(upload)).body);
    // Decoded before anything is written: a snapshot that does not decode leaves nothing behind.
    const thumbnail = needThumbnail ? await thumbnailOf(bytes) : undefined;
    const media: PreparedMedia = { kind: 'image', keys: [] };
    try {
      if (thumbnail) {
        media.thumbnailKey = `${prefix}/thumb-${token}.webp`;
        media.keys.push(media.thumbnailKey);
        await storage.put(media.thumbnailKey, thumbnail.thumb, 'image/webp');
        media.width = thumbnail.width;
        media.height = thumbnail.height;
      }
      media.imageKey = `${prefix}/image-${token}.${extensionOf(upload.storageKey)}`;
      media.keys.push(media.imageKey);
      await storage.put(media.imageKey, bytes, upload.contentType);
      return media;
    } catch (err) {
      await discard(media.keys);
      throw err;
    }
  }

  async function prepareClip(
    upload: StoredUpload,
    prefix: string,
    token: string,
    needThumbnail: boolean,
  ): Promise<PreparedMedia> {
    const work = await mkdtemp(join(tmpRoot, 'hs-clip-'));
    const media: PreparedMedia = { kind: 'video', keys: [] };
    let info: ClipInfo | undefined;
    try {
      const ext = extensionOf(upload.storageKey);
      const file = join(work, `original.${ext}`);
      await pipeline((await fetchUpload(upload)).body, createWriteStream(file));
      try {
        await processClip(file, ext);
      } catch (err) {
        if (!(err instanceof MediaToolMissingError)) throw err;
        deps.onToolMissing(err);
        await discard(media.keys.splice(0));
        media.thumbnailKey = undefined;
        await keepOriginal(file, ext);
        // ffprobe may have run where ffmpeg could not: what it read still sizes the player.
        media.width = info?.width;
        media.height = info?.height;
        media.durationSeconds = info?.durationSeconds;
      }
      return media;
    } catch (err) {
      await discard(media.keys);
      throw err;
    } finally {
      await rm(work, { recursive: true, force: true });
    }

    /** The original, as the camera sent it: what a clip keeps with or without its HLS. */
    async function keepOriginal(file: string, ext: string): Promise<void> {
      media.videoKey = `${prefix}/video-${token}.${ext}`;
      media.keys.push(media.videoKey);
      await storage.putFile(media.videoKey, file, upload.contentType);
    }

    async function processClip(file: string, ext: string): Promise<void> {
      info = await ffmpeg.probe(file);
      const hlsDir = join(work, 'hls');
      await mkdir(hlsDir);
      const [poster, hls] = await Promise.all([
        needThumbnail ? ffmpeg.poster(file, info) : undefined,
        ffmpeg.toHls(file, hlsDir, info),
      ]);
      if (poster) {
        media.thumbnailKey = `${prefix}/poster-${token}.jpg`;
        media.keys.push(media.thumbnailKey);
        await storage.put(media.thumbnailKey, poster, 'image/jpeg');
      }
      const hlsPrefix = `${prefix}/hls-${token}`;
      for (const name of hls.files) {
        const key = `${hlsPrefix}/${name}`;
        media.keys.push(key);
        await storage.putFile(key, join(hlsDir, name), contentTypeOfKey(key));
      }
      media.hlsKey = `${hlsPrefix}/${hls.playlist}`;
      await keepOriginal(file, ext);
      media.width = info.width;
      media.height = info.height;
      media.durationSeconds = info.durationSeconds;
      media.transcoded = hls.transcoded;
    }
  }

  async function discard(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => storage.delete(key)));
  }

  return {
    /**
     * Writes the media of `upload` under the activity's folder. `needThumbnail` is false when the upload
     * joins an activity that already has one.
     */
    async prepare(upload: UploadRow, activityId: string, needThumbnail: boolean): Promise<PreparedMedia> {
      // An event without media adds itself to the activity (its time, the maker's verdict), no file.
      if (upload.mediaKind === 'none' || upload.storageKey === null) return { kind: 'none', keys: [] };
      const stored: StoredUpload = {
        ...upload,
        storageKey: upload.storageKey,
        contentType: upload.contentType ?? contentTypeOfKey(upload.storageKey),
      };
      const prefix = activityMediaPrefix(upload.userId, activityId);
      const token = randomBytes(6).toString('hex');
      return upload.mediaKind === 'video'
        ? prepareClip(stored, prefix, token, needThumbnail)
        : prepareImage(stored, prefix, token, needThumbnail);
    },

    /** Removes files a run wrote but did not commit. */
    discard,
  };
}
export type ActivityMedia = ReturnType<typeof createActivityMedia>;
