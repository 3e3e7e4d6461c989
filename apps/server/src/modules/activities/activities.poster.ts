import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { Logger } from '../../platform/logger.js';
import { activityMediaPrefix } from './activities.media.js';
import type { AnalysisResult } from './activities.findings.repository.js';
import type { ActivityRow } from './activities.repository.js';

/** The same size as the poster cut at arrival (media/ffmpeg.ts): a list thumbnail and a player poster at once. */
const POSTER_EDGE = 640;

/**
 * A clip's poster is first its middle frame, cut when it arrives; once the analysis has looked at the clip,
 * the frame with the surest detection replaces it (a motion clip often starts, and is still empty at its
 * middle, before someone walks in). The new poster is stored under a fresh key and takes effect with the
 * analysis' findings; the old one is deleted only after that committed.
 */
export function createPosterReplacer(deps: { storage: ObjectStorage; log: Logger }) {
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

    /** After the findings (and a new poster) committed, the replaced poster's file goes. */
    async dropReplaced(previousKey: string | null, result: AnalysisResult): Promise<void> {
      if (!result.posterKey || !previousKey || previousKey === result.posterKey) return;
      await deps.storage.delete(previousKey).catch((err: unknown) => {
        // Left behind, it is removed with the activity's folder.
        deps.log.warn({ err, key: previousKey }, 'the replaced poster could not be deleted');
      });
    },
  };
}
