import { MAX_IMAGE_PIXELS } from '../../platform/sharp.js';
import type { RefusalReason } from './media-sniff.js';

export type UploadRefusalReason = RefusalReason | 'too_large';

const MESSAGES: Record<UploadRefusalReason, (maxBytes: number) => string> = {
  empty: () => 'The file is empty',
  not_media: () => 'Only JPEG, PNG, MP4, MOV, MKV and AVI files are accepted',
  truncated: () => 'The file is incomplete (cut off before its end)',
  unsupported_codec: () => 'Clips must be H.264 or H.265 video',
  too_many_pixels: () => `Pictures are at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
  too_large: (maxBytes) => `Uploads are at most ${Math.floor(maxBytes / (1024 * 1024))} MB`,
};

/**
 * An upload the camera sent that is not acceptable media; nothing of it is kept. Each protocol answers it
 * in its own words (FTP 553/552, SMTP 554, HTTP 400/413) with this message.
 */
export class UploadRefusedError extends Error {
  constructor(
    readonly reason: UploadRefusalReason,
    maxBytes: number,
  ) {
    super(MESSAGES[reason](maxBytes));
    this.name = 'UploadRefusedError';
  }
}
