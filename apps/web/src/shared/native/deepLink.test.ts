import { describe, expect, it, vi } from 'vitest';
import { handleDeepLink, saveImageUrl, startDeepLinks } from './deepLink';
import { fakeListeners } from './fakes.test-support';

function deps() {
  const timers: { fn: () => void; ms: number }[] = [];
  return {
    setPendingImageUrl: vi.fn(),
    navigate: vi.fn(),
    warn: vi.fn(),
    schedule: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    timers,
  };
}

describe('deep link homesitter://saveImage', () => {
  it('keeps the image and opens the chat in place of the current screen about 100 ms later', () => {
    const d = deps();
    const image = 'https://cdn.example.com/a b.jpg?x=1';
    expect(handleDeepLink(`homesitter://saveImage?imageUrl=${encodeURIComponent(image)}`, d)).toBe(true);
    expect(d.setPendingImageUrl).toHaveBeenCalledWith(image);
    expect(d.navigate).not.toHaveBeenCalled();
    expect(d.timers.map((t) => t.ms)).toEqual([100]);
    d.timers[0]!.fn();
    expect(d.navigate).toHaveBeenCalledWith('/chat', { replace: true, state: { pendingImageUrl: image } });
  });

  it('only logs a warning without an imageUrl (or with one that is no web address)', () => {
    for (const link of ['homesitter://saveImage', 'homesitter://saveImage?imageUrl=javascript:alert(1)']) {
      const d = deps();
      expect(handleDeepLink(link, d)).toBe(true);
      expect(d.warn).toHaveBeenCalledOnce();
      expect(d.setPendingImageUrl).not.toHaveBeenCalled();
      expect(d.timers).toEqual([]);
    }
  });

  it('ignores other links', () => {
    const d = deps();
    for (const link of [
      'homesitter://other?imageUrl=https://x/y.jpg',
      'https://homesitter.app/saveImage',
      'nonsense',
    ]) {
      expect(handleDeepLink(link, d)).toBe(false);
    }
    expect(d.warn).not.toHaveBeenCalled();
    expect(d.setPendingImageUrl).not.toHaveBeenCalled();
  });

  it('reads the host in any case and the scheme without slashes', () => {
    expect(saveImageUrl('homesitter://saveimage?imageUrl=https://x/y.jpg')).toEqual({
      imageUrl: 'https://x/y.jpg',
    });
    expect(saveImageUrl('homesitter:saveImage?imageUrl=https://x/y.jpg')).toEqual({
      imageUrl: 'https://x/y.jpg',
    });
  });

  it('listens to appUrlOpen', async () => {
    const events = fakeListeners();
    const d = deps();
    await startDeepLinks({ addListener: events.addListener }, d);
    events.fire('appUrlOpen', { url: 'homesitter://saveImage?imageUrl=https%3A%2F%2Fx%2Fy.jpg' });
    expect(d.setPendingImageUrl).toHaveBeenCalledWith('https://x/y.jpg');
  });
});
