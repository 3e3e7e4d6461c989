import type { Metadata } from 'sharp';
import { openImage } from '../../platform/sharp.js';
import { UnreadableImageError, type VisionEngine } from './vision.js';

/**
 * `VISION_ENABLED=false`: no models, no worker, no memory. Every image holds nothing; its size is still read
 * (from the header, by sharp) so callers that lay out a picture have it.
 */
export function createDisabledVisionEngine(): VisionEngine {
  async function size(image: Buffer): Promise<{ width: number; height: number }> {
    let meta: Metadata;
    try {
      meta = await (await openImage(image)).metadata();
    } catch (err) {
      throw new UnreadableImageError('the image could not be read', { cause: err });
    }
    if (!meta.width || !meta.height) throw new UnreadableImageError('the image has no size');
    const turned = (meta.orientation ?? 1) >= 5;
    return turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  }
  return {
    kind: 'disabled',
    analyse: async (image) => ({ ...(await size(image)), objects: [], faces: [] }),
    async embedFaces(image) {
      await size(image);
      return [];
    },
    close: async () => undefined,
  };
}
