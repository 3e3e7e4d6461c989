/**
 * The image the chat's "save this image" deep link left waiting (spec §2 `saveImage?imageUrl=…`). The chat
 * feature writes it under this session-storage key; memories reads it to offer "add to a memory" and
 * clears it once added.
 */
const KEY = 'homesitter.pendingImageUrl';

export function getPendingImageUrl(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function clearPendingImageUrl(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}
