import { TIP_TOAST_DURATION_MS, TOAST_DEDUPE_MS, TOAST_DURATION_MS } from '@homesitter/contract/runtime';

const lastShown = new Map<string, number>();

/** docs/product.md §8: a toast with the same text as one shown in the last 3 s is dropped. */
export function shouldShowToast(text: string, now = Date.now()): boolean {
  const last = lastShown.get(text);
  if (last !== undefined && now - last < TOAST_DEDUPE_MS) return false;
  lastShown.set(text, now);
  return true;
}

export function resetToastMemory() {
  lastShown.clear();
}

type Kind = 'success' | 'error' | 'info' | 'tip';

/** sonner loads with the first toast (or when the Toaster mounts), keeping it out of the first paint. */
function show(kind: Kind, text: string) {
  if (!shouldShowToast(text)) return;
  void import('sonner').then(({ toast }) => {
    if (kind === 'success') toast.success(text, { duration: TOAST_DURATION_MS });
    else if (kind === 'error') toast.error(text, { duration: TOAST_DURATION_MS });
    else if (kind === 'tip') toast.info(text, { duration: TIP_TOAST_DURATION_MS });
    else toast(text, { duration: TOAST_DURATION_MS });
  });
}

export const notify = {
  success: (text: string) => show('success', text),
  error: (text: string) => show('error', text),
  info: (text: string) => show('info', text),
  tip: (text: string) => show('tip', text),
};
