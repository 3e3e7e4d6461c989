import { serverBase } from '../lib/apiOrigin';
import type { NativePlatform } from './types';

/** docs/product.md §8 video download failures, as the keys of their translated toasts (`video.errors.*`). */
export type VideoDownloadFailure =
  'timeout' | 'accessDenied' | 'notFound' | 'galleryPermissionDenied' | 'failed';

export class VideoDownloadError extends Error {
  constructor(
    readonly reason: VideoDownloadFailure,
    options?: { cause?: unknown },
  ) {
    super(`video download failed: ${reason}`, options);
    this.name = 'VideoDownloadError';
  }
}

/** The slices of `@capacitor/filesystem`, `@capacitor/share` and `@capacitor-community/media` used here. */
export interface FilesystemPlugin {
  downloadFile(options: {
    url: string;
    path: string;
    directory: 'CACHE';
    connectTimeout?: number;
    readTimeout?: number;
  }): Promise<{ path?: string }>;
  getUri(options: { path: string; directory: 'CACHE' }): Promise<{ uri: string }>;
  deleteFile(options: { path: string; directory: 'CACHE' }): Promise<void>;
}
export interface SharePlugin {
  share(options: { title?: string; files?: string[]; url?: string; dialogTitle?: string }): Promise<unknown>;
}
export interface MediaPlugin {
  saveVideo(options: { path: string; albumIdentifier?: string; fileName?: string }): Promise<unknown>;
  getAlbums(): Promise<{ albums: { identifier: string; name: string }[] }>;
  createAlbum(options: { name: string }): Promise<void>;
}

export interface VideoFilePlugins {
  filesystem: FilesystemPlugin;
  share: SharePlugin;
  media: MediaPlugin;
}

/** The download gives up after this long without an answer or a byte. */
export const VIDEO_DOWNLOAD_TIMEOUT_MS = 60_000;
const ALBUM = 'Homesitter';

/** The §8 failure a plugin error stands for (their messages and codes differ by platform and plugin). */
export function classifyVideoError(error: unknown, stage: 'download' | 'save'): VideoDownloadFailure {
  const e = (error ?? {}) as { message?: unknown; code?: unknown; status?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const text =
    `${typeof e.code === 'string' ? e.code : ''} ${typeof e.message === 'string' ? e.message : String(error)}`.toLowerCase();
  if (stage === 'save' && /permission|denied|not authori[sz]ed|access/.test(text))
    return 'galleryPermissionDenied';
  if (/time(d)? ?out|timeout/.test(text)) return 'timeout';
  if (status === 404 || /\b404\b|not ?found|no such file/.test(text)) return 'notFound';
  if (
    status === 401 ||
    status === 403 ||
    /\b40[13]\b|forbidden|access denied|unauthori[sz]ed|permission/.test(text)
  )
    return 'accessDenied';
  return 'failed';
}

function fileNameFor(url: string): string {
  let name = 'clip.mp4';
  try {
    name = new URL(url, 'https://localhost').pathname.split('/').pop() || name;
  } catch {
    // keep the default
  }
  const safe = name.replace(/[^\w.-]/g, '_');
  return `homesitter-${Date.now()}-${/\.(mp4|mov|m4v|webm)$/i.test(safe) ? safe : `${safe}.mp4`}`;
}

/** Downloads a clip into the app's cache; resolves to its local `file://` URI. */
export async function downloadVideo(
  filesystem: FilesystemPlugin,
  url: string,
  timeoutMs: number = VIDEO_DOWNLOAD_TIMEOUT_MS,
): Promise<{ uri: string; path: string }> {
  const path = `videos/${fileNameFor(url)}`;
  try {
    await filesystem.downloadFile({
      url: new URL(url, serverBase()).toString(),
      path,
      directory: 'CACHE',
      connectTimeout: timeoutMs,
      readTimeout: timeoutMs,
    });
    const { uri } = await filesystem.getUri({ path, directory: 'CACHE' });
    return { uri, path };
  } catch (error) {
    throw new VideoDownloadError(classifyVideoError(error, 'download'), { cause: error });
  }
}

/** docs/product.md §6: sharing a clip is for the mobile app: downloaded, then handed to the system's share sheet. */
export async function shareVideo(plugins: VideoFilePlugins, url: string, title?: string): Promise<void> {
  const file = await downloadVideo(plugins.filesystem, url);
  try {
    await plugins.share.share({ files: [file.uri], ...(title ? { title, dialogTitle: title } : {}) });
  } catch (error) {
    // Closing the share sheet is not a failure.
    if (/cancel/i.test(String((error as { message?: unknown })?.message ?? error))) return;
    throw new VideoDownloadError('failed', { cause: error });
  }
}

/** Saves a clip to the phone's gallery (Android: the Homesitter album). */
export async function saveVideoToGallery(
  plugins: VideoFilePlugins,
  url: string,
  platform: NativePlatform,
): Promise<void> {
  const file = await downloadVideo(plugins.filesystem, url);
  try {
    let albumIdentifier: string | undefined;
    if (platform === 'android') {
      const find = async () =>
        (await plugins.media.getAlbums()).albums.find((a) => a.name === ALBUM)?.identifier;
      albumIdentifier = await find();
      if (!albumIdentifier) {
        await plugins.media.createAlbum({ name: ALBUM });
        albumIdentifier = await find();
      }
    }
    await plugins.media.saveVideo({ path: file.uri, ...(albumIdentifier ? { albumIdentifier } : {}) });
  } catch (error) {
    throw new VideoDownloadError(classifyVideoError(error, 'save'), { cause: error });
  } finally {
    await plugins.filesystem.deleteFile({ path: file.path, directory: 'CACHE' }).catch(() => undefined);
  }
}
