import { describe, expect, it, vi } from 'vitest';
import { absoluteMediaUrl, choosePlayer, NATIVE_PLAYER_ID, playNative } from './player';

describe('player choice', () => {
  it('uses the native player in the apps when there is something to play, the web player otherwise', () => {
    expect(choosePlayer(true, '/api/live/cam/index.m3u8')).toBe('native');
    expect(choosePlayer(true, null)).toBe('web');
    expect(choosePlayer(false, '/api/live/cam/index.m3u8')).toBe('web');
  });

  it('opens the fullscreen player on an absolute address; a live stream does not close at its end', async () => {
    const initPlayer = vi.fn(async () => ({ result: true }));
    await expect(
      playNative({ initPlayer }, { url: '/api/live/c/index.m3u8', title: 'Porch', live: true }),
    ).resolves.toBe(true);
    expect(initPlayer).toHaveBeenCalledWith(
      expect.objectContaining({
        mode: 'fullscreen',
        url: absoluteMediaUrl('/api/live/c/index.m3u8'),
        playerId: NATIVE_PLAYER_ID,
        title: 'Porch',
        exitOnEnd: false,
      }),
    );
    expect(absoluteMediaUrl('/a.m3u8', 'https://home.example.com/cameras')).toBe(
      'https://home.example.com/a.m3u8',
    );
  });

  it('says when the player did not open', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const initPlayer = vi.fn(async () => ({ result: false, message: 'bad url' }));
    await expect(playNative({ initPlayer }, { url: 'https://x/clip.mp4' })).resolves.toBe(false);
    expect(initPlayer).toHaveBeenCalledWith(expect.objectContaining({ exitOnEnd: true }));
    warn.mockRestore();
  });
});
