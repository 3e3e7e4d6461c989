import {
  ANDROID_KEYBOARD_FOCUS_WAIT_MS,
  ANDROID_KEYBOARD_RESTORE_MS,
  ANDROID_KEYBOARD_VISIBLE_FRACTION,
} from '@homesitter/contract/runtime';

/** Fields that open the on-screen keyboard. */
export function opensKeyboard(target: EventTarget | null): target is HTMLElement {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement || target.isContentEditable) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return ![
    'button',
    'checkbox',
    'color',
    'file',
    'hidden',
    'image',
    'radio',
    'range',
    'reset',
    'submit',
  ].includes(target.type);
}

/**
 * How far to scroll so a focused field stays in sight above Android's keyboard (docs/product.md §9: the keyboard takes
 * the lower part of the screen; the field is kept within the part of the viewport above the bottom 40 %):
 * the distance its bottom edge lies below that line, else 0.
 */
export function keyboardScrollDelta(fieldBottom: number, viewportHeight: number): number {
  const line = viewportHeight * (1 - ANDROID_KEYBOARD_VISIBLE_FRACTION);
  return fieldBottom > line ? Math.ceil(fieldBottom - line) : 0;
}

export interface KeyboardScrollEnv {
  target: Pick<Document, 'addEventListener' | 'removeEventListener'>;
  viewportHeight: () => number;
  scrollY: () => number;
  scrollTo: (y: number) => void;
  /** The field that has focus now (blur restores the scroll only when none has). */
  activeElement: () => Element | null;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (timer: unknown) => void;
}

function browserEnv(): KeyboardScrollEnv {
  return {
    target: document,
    viewportHeight: () => window.innerHeight,
    scrollY: () => window.scrollY,
    scrollTo: (y) => window.scrollTo(0, y),
    activeElement: () => document.activeElement,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (t) => window.clearTimeout(t as number),
  };
}

/**
 * Android keyboard handling (docs/product.md §2): 300 ms after a field gets focus (the keyboard is up by then) the page
 * scrolls so the field is not under the keyboard; 100 ms after it loses focus the page goes back to where
 * it was. Returns the cleanup.
 */
export function startKeyboardScroll(env: KeyboardScrollEnv = browserEnv()): () => void {
  let focusTimer: unknown;
  let blurTimer: unknown;
  let restoreTo: number | null = null;

  const onFocus = (event: Event) => {
    const field = event.target;
    if (!opensKeyboard(field)) return;
    env.clearTimeout(blurTimer);
    env.clearTimeout(focusTimer);
    focusTimer = env.setTimeout(() => {
      const delta = keyboardScrollDelta(field.getBoundingClientRect().bottom, env.viewportHeight());
      if (delta <= 0) return;
      const from = env.scrollY();
      restoreTo ??= from;
      env.scrollTo(from + delta);
    }, ANDROID_KEYBOARD_FOCUS_WAIT_MS);
  };

  const onBlur = (event: Event) => {
    if (!opensKeyboard(event.target)) return;
    env.clearTimeout(focusTimer);
    env.clearTimeout(blurTimer);
    blurTimer = env.setTimeout(() => {
      if (restoreTo === null || opensKeyboard(env.activeElement())) return;
      env.scrollTo(restoreTo);
      restoreTo = null;
    }, ANDROID_KEYBOARD_RESTORE_MS);
  };

  env.target.addEventListener('focusin', onFocus);
  env.target.addEventListener('focusout', onBlur);
  return () => {
    env.clearTimeout(focusTimer);
    env.clearTimeout(blurTimer);
    env.target.removeEventListener('focusin', onFocus);
    env.target.removeEventListener('focusout', onBlur);
  };
}
