/**
 * The image a "save this image" deep link left waiting (docs/product.md §2: custom scheme `saveImage?imageUrl=…`), kept
 * for the session. The chat sends it with a message; memories offers "add to a memory". Either clears it.
 */
const KEY = 'homesitter.pendingImageUrl';

export function setPendingImageUrl(url: string | null): void {
  try {
    if (url) window.sessionStorage.setItem(KEY, url);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage unavailable (private browsing): the image is simply not kept.
  }
}

export function getPendingImageUrl(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export const clearPendingImageUrl = (): void => setPendingImageUrl(null);
