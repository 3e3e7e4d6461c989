import type { AppModule, ModuleContext } from '../../platform/module.js';
import { createFfmpeg } from './ffmpeg.js';
import { extractFrames } from './frames.js';
import { deleteMediaOfDeletedUsers } from './media.cleanup.js';
import { registerMediaRoutes } from './media.routes.js';
import type { MediaSigner } from './media.signer.js';
import { createMediaTools } from './tools.js';

// What other modules may use besides the API: rules and errors they share.
export { MediaToolMissingError, UnreadableClipError } from './ffmpeg.js';
export { CENTRE, focusOf } from './focus.js';
export { processImage, sniffImageFile, thumbnailOf, UnreadableImageError } from './images.js';
export { userMediaPrefix } from './media.cleanup.js';
export { createSignedUrlCache } from './signed-urls.js';

/**
 * Media: the signed `/media` route, ffmpeg and ffprobe (checked once at start: their versions logged, or one
 * warning saying what to do), and the removal of a deleted user's stored files.
 */
export function createMediaModule(context: ModuleContext, needs: { signer: MediaSigner }) {
  const { config, log, storage, events } = context;
  const tools = createMediaTools({ ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH, log });
  deleteMediaOfDeletedUsers(events, storage, log);
  return {
    api: {
      signer: needs.signer,
      /** Which tools run, for `/readyz`. */
      report: () => tools.report(),
      /** Says once that a tool is missing (and what to do); processing goes on without it. */
      reportMissing: tools.reportMissing,
      ffmpeg: createFfmpeg({ ffmpegPath: tools.ffmpegPath, ffprobePath: tools.ffprobePath }),
      /** Where ffmpeg and ffprobe are (stream cameras run their own processes). */
      toolPaths: { ffmpeg: tools.ffmpegPath, ffprobe: tools.ffprobePath },
      extractFrames: (clip: string | Buffer, count: number) =>
        extractFrames(clip, count, { ffmpegPath: tools.ffmpegPath }),
    },
    routes: (app) =>
      registerMediaRoutes(app, { storage, signer: needs.signer, urlTtlSeconds: config.MEDIA_URL_TTL }),
    ready: () => void tools.check(),
  } satisfies AppModule<unknown>;
}
export type MediaApi = ReturnType<typeof createMediaModule>['api'];
