/**
 * The image a deep link asked to save (spec §2: custom scheme `saveImage?imageUrl=…`): kept for the session
 * until the user sends it with a message or removes it.
 */
const KEY = 'homesitter.pendingImageUrl';

export function setPendingImageUrl(url: string | null) {
  try {
    if (url) window.sessionStorage.setItem(KEY, url);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage unavailable (private mode): the image is simply not kept.
  }
}

export function getPendingImageUrl(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
