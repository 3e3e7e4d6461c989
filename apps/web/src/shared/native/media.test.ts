import { describe, expect, it, vi } from 'vitest';
import {
  classifyVideoError,
  downloadVideo,
  saveVideoToGallery,
  shareVideo,
  VideoDownloadError,
  type VideoFilePlugins,
} from './media';

function plugins(
  overrides: { download?: () => Promise<object>; save?: () => Promise<unknown>; albums?: string[] } = {},
) {
  const albums = [...(overrides.albums ?? [])];
  const spies = {
    downloadFile: vi.fn(
      overrides.download ?? (async (_options: { url: string; directory: string; path: string }) => ({})),
    ),
    getUri: vi.fn(async ({ path }: { path: string }) => ({ uri: `file:///cache/${path}` })),
    deleteFile: vi.fn(async () => undefined),
    share: vi.fn(async () => ({})),
    saveVideo: vi.fn(overrides.save ?? (async () => ({}))),
    getAlbums: vi.fn(async () => ({ albums: albums.map((name) => ({ name, identifier: `id-${name}` })) })),
    createAlbum: vi.fn(async ({ name }: { name: string }) => void albums.push(name)),
  };
  const p: VideoFilePlugins = {
    filesystem: { downloadFile: spies.downloadFile, getUri: spies.getUri, deleteFile: spies.deleteFile },
    share: { share: spies.share },
    media: { saveVideo: spies.saveVideo, getAlbums: spies.getAlbums, createAlbum: spies.createAlbum },
  };
  return { ...p, spies };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VideoDownloadError);
  return (error as VideoDownloadError).reason;
}

describe('video sharing and saving (mobile only)', () => {
  it('downloads the clip into the cache and hands it to the share sheet', async () => {
    const p = plugins();
    await shareVideo(p, 'https://media.example.com/clips/c1.mp4?sig=1', 'Porch');
    const options = p.spies.downloadFile.mock.calls[0]![0];
    expect(options.url).toBe('https://media.example.com/clips/c1.mp4?sig=1');
    expect(options.directory).toBe('CACHE');
    expect(options.path).toMatch(/^videos\/homesitter-\d+-c1\.mp4$/);
    expect(p.spies.share).toHaveBeenCalledWith({
      files: [`file:///cache/${options.path}`],
      title: 'Porch',
      dialogTitle: 'Porch',
    });
  });

  it('saves to the Homesitter album on Android, creating it once, and cleans up the download', async () => {
    const p = plugins();
    await saveVideoToGallery(p, '/media/c1.mp4', 'android');
    expect(p.spies.createAlbum).toHaveBeenCalledWith({ name: 'Homesitter' });
    expect(p.spies.saveVideo).toHaveBeenCalledWith(
      expect.objectContaining({ albumIdentifier: 'id-Homesitter' }),
    );
    expect(p.spies.deleteFile).toHaveBeenCalledOnce();

    const ios = plugins();
    await saveVideoToGallery(ios, '/media/c1.mp4', 'ios');
    expect(ios.spies.getAlbums).not.toHaveBeenCalled();
    expect(ios.spies.saveVideo).toHaveBeenCalledWith({ path: expect.stringMatching(/^file:\/\//) as string });
  });

  it('reports the docs/product.md §8 download failures: timeout, access denied, not found, gallery permission denied', async () => {
    expect(
      await failure(
        downloadVideo(
          plugins({ download: () => Promise.reject(new Error('The request timed out.')) }).filesystem,
          '/c.mp4',
        ),
      ),
    ).toBe('timeout');
    expect(
      await failure(
        downloadVideo(
          plugins({ download: () => Promise.reject(Object.assign(new Error('HTTP error'), { status: 403 })) })
            .filesystem,
          '/c.mp4',
        ),
      ),
    ).toBe('accessDenied');
    expect(
      await failure(
        downloadVideo(
          plugins({ download: () => Promise.reject(new Error('Server returned 404')) }).filesystem,
          '/c.mp4',
        ),
      ),
    ).toBe('notFound');
    expect(
      await failure(
        saveVideoToGallery(
          plugins({ save: () => Promise.reject(new Error('Unable to access album: permission denied')) }),
          '/c.mp4',
          'ios',
        ),
      ),
    ).toBe('galleryPermissionDenied');
    expect(classifyVideoError(new Error('disk full'), 'download')).toBe('failed');
  });

  it('does not treat closing the share sheet as a failure', async () => {
    const p = plugins();
    p.spies.share.mockRejectedValue(new Error('Share canceled'));
    await expect(shareVideo(p, '/c.mp4')).resolves.toBeUndefined();
  });
});
