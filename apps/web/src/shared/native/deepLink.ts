import { DEEP_LINK_NAVIGATION_DELAY_MS, DEEP_LINK_SCHEME } from '@homesitter/contract/runtime';
import type { ListenerHandle, Navigate } from './types';

/** The slice of `@capacitor/app` deep links use. */
export interface AppUrlPlugin {
  addListener(event: 'appUrlOpen', fn: (e: { url: string }) => void): Promise<ListenerHandle>;
}

export interface DeepLinkDeps {
  setPendingImageUrl: (url: string) => void;
  navigate: Navigate;
  schedule?: (fn: () => void, ms: number) => unknown;
  warn?: (...args: unknown[]) => void;
}

/**
 * The image URL of `homesitter://saveImage?imageUrl=…`; null for any other link. Only web addresses are
 * taken: the chat sends the image with the next message.
 */
export function saveImageUrl(link: string): { imageUrl: string | null } | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  // `homesitter://saveImage?…` has the host saveImage; `homesitter:saveImage?…` the path.
  const target = (url.host || url.pathname.replace(/^\/+/, '')).replace(/\/+$/, '').toLowerCase();
  if (target !== 'saveimage') return null;
  const imageUrl = url.searchParams.get('imageUrl');
  if (!imageUrl || !/^https?:\/\//i.test(imageUrl)) return { imageUrl: null };
  return { imageUrl };
}

/**
 * docs/product.md §2 deep link: `saveImage?imageUrl=…` keeps the image as the pending one and opens the chat in place
 * of the current screen about 100 ms later; without an image URL a warning is logged; other links are
 * ignored. Returns whether the link was ours.
 */
export function handleDeepLink(link: string, deps: DeepLinkDeps): boolean {
  const parsed = saveImageUrl(link);
  if (!parsed) return false;
  const { imageUrl } = parsed;
  if (!imageUrl) {
    (deps.warn ?? console.warn)('saveImage deep link without an imageUrl', link);
    return true;
  }
  deps.setPendingImageUrl(imageUrl);
  const schedule = deps.schedule ?? ((fn: () => void, ms: number) => window.setTimeout(fn, ms));
  schedule(() => {
    void deps.navigate('/chat', { replace: true, state: { pendingImageUrl: imageUrl } });
  }, DEEP_LINK_NAVIGATION_DELAY_MS);
  return true;
}

export function startDeepLinks(app: AppUrlPlugin, deps: DeepLinkDeps): Promise<ListenerHandle> {
  return app.addListener('appUrlOpen', ({ url }) => {
    handleDeepLink(url, deps);
  });
}
