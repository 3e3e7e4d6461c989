import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { activityMediaPrefix } from './activities.media.js';
import type { ActivityRow } from './activities.repository.js';

/** The same size as the poster cut at arrival (media/ffmpeg.ts): a list thumbnail and a player poster at once. */
const POSTER_EDGE = 640;

/**
 * A clip's poster is first its middle frame, cut when it arrives; once the analysis has looked at the clip,
 * the frame with the surest detection replaces it (a motion clip often starts, and is still empty at its
 * middle, before someone walks in). The new poster is stored under a fresh key and takes effect with the
 * analysis' findings. The arrival poster stays in the activity's folder (deleted with it): screens that
 * showed the new event already hold its URL, and a deleted file would turn them into "Snapshot unavailable".
 */
export function createPosterReplacer(deps: { storage: ObjectStorage }) {
  return {
    /** Stores `frame` (a JPEG the analysis looked at) as a poster; the key goes into `saveAnalysis`. */
    async storePoster(activity: Pick<ActivityRow, 'id' | 'userId'>, frame: Buffer): Promise<string> {
      const jpeg = await sharp(frame)
        .resize({ width: POSTER_EDGE, height: POSTER_EDGE, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80 })
        .toBuffer();
      const key = `${activityMediaPrefix(activity.userId, activity.id)}/poster-${randomBytes(6).toString('hex')}.jpg`;
      await deps.storage.put(key, jpeg, 'image/jpeg');
      return key;
    },
  };
}
