import { TIP_TOAST_DURATION_MS, TOAST_DEDUPE_MS, TOAST_DURATION_MS } from '@homesitter/contract';
import { toast } from 'sonner';

const lastShown = new Map<string, number>();

/** Spec §8: a toast with the same text as one shown in the last 3 s is dropped. */
export function shouldShowToast(text: string, now = Date.now()): boolean {
  const last = lastShown.get(text);
  if (last !== undefined && now - last < TOAST_DEDUPE_MS) return false;
  lastShown.set(text, now);
  return true;
}

export function resetToastMemory() {
  lastShown.clear();
}

export const notify = {
  success(text: string) {
    if (shouldShowToast(text)) toast.success(text, { duration: TOAST_DURATION_MS });
  },
  error(text: string) {
    if (shouldShowToast(text)) toast.error(text, { duration: TOAST_DURATION_MS });
  },
  info(text: string) {
    if (shouldShowToast(text)) toast(text, { duration: TOAST_DURATION_MS });
  },
  tip(text: string) {
    if (shouldShowToast(text)) toast.info(text, { duration: TIP_TOAST_DURATION_MS });
  },
};
