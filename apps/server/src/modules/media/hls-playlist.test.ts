import { describe, expect, it } from 'vitest';
import { signPlaylist } from './hls-playlist.js';

const PLAYLIST = [
  '#EXTM3U',
  '#EXT-X-VERSION:7',
  '#EXT-X-TARGETDURATION:4',
  '#EXT-X-PLAYLIST-TYPE:VOD',
  '#EXT-X-MAP:URI="init.mp4"',
  '#EXTINF:4.000000,',
  'seg000.m4s',
  '#EXTINF:2.100000,',
  'seg001.m4s',
  '#EXT-X-ENDLIST',
  '',
].join('\n');

const sign = async (key: string) => `https://media.test/${key}?sig=x`;

describe('HLS playlist signing', () => {
  it('turns the init segment and every media segment into the signed URL of the file beside the playlist', async () => {
    const out = await signPlaylist(PLAYLIST, 'users/u/activities/a/hls/index.m3u8', sign);
    expect(out).toContain('#EXT-X-MAP:URI="https://media.test/users/u/activities/a/hls/init.mp4?sig=x"');
    expect(out).toContain('\nhttps://media.test/users/u/activities/a/hls/seg000.m4s?sig=x\n');
    expect(out).toContain('\nhttps://media.test/users/u/activities/a/hls/seg001.m4s?sig=x\n');
    expect(out).toContain('#EXTINF:2.100000,');
    expect(out.endsWith('#EXT-X-ENDLIST\n')).toBe(true);
  });

  it.each(['../other/seg.m4s', '/etc/passwd', 'https://evil.test/seg.m4s'])(
    'refuses a URI outside the playlist folder (%s)',
    async (uri) => {
      await expect(signPlaylist(`#EXTM3U\n${uri}\n`, 'users/u/a/index.m3u8', sign)).rejects.toThrow();
    },
  );
});
