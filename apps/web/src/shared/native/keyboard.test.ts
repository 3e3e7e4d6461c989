import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyboardScrollDelta, opensKeyboard, startKeyboardScroll } from './keyboard';

function env(viewportHeight = 800) {
  let y = 0;
  const scrolls: number[] = [];
  return {
    target: document,
    viewportHeight: () => viewportHeight,
    scrollY: () => y,
    scrollTo: (to: number) => {
      scrolls.push(to);
      y = to;
    },
    activeElement: () => document.activeElement,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: unknown) => clearTimeout(t as number),
    scrolls,
  };
}

function field(bottom: number, tag: 'input' | 'textarea' = 'input') {
  const el = document.createElement(tag);
  el.getBoundingClientRect = () => ({ bottom, top: bottom - 40 }) as DOMRect;
  document.body.appendChild(el);
  return el;
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('Android keyboard scroll', () => {
  it('keeps a field out of the bottom 40 % of the viewport', () => {
    expect(keyboardScrollDelta(700, 1000)).toBe(100);
    expect(keyboardScrollDelta(600, 1000)).toBe(0);
    expect(keyboardScrollDelta(200, 1000)).toBe(0);
  });

  it('scrolls 300 ms after focus and restores the scroll 100 ms after blur', () => {
    vi.useFakeTimers();
    const e = env(800);
    const stop = startKeyboardScroll(e);
    const input = field(700);
    input.focus();
    vi.advanceTimersByTime(299);
    expect(e.scrolls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(e.scrolls).toEqual([700 - 480]);

    input.blur();
    vi.advanceTimersByTime(99);
    expect(e.scrolls).toEqual([220]);
    vi.advanceTimersByTime(1);
    expect(e.scrolls).toEqual([220, 0]);
    stop();
  });

  it('leaves fields in sight alone and ignores buttons and checkboxes', () => {
    vi.useFakeTimers();
    const e = env(800);
    const stop = startKeyboardScroll(e);
    field(300).focus();
    vi.advanceTimersByTime(400);
    const box = document.createElement('input');
    box.type = 'checkbox';
    expect(opensKeyboard(box)).toBe(false);
    expect(opensKeyboard(document.createElement('button'))).toBe(false);
    expect(opensKeyboard(document.createElement('textarea'))).toBe(true);
    expect(e.scrolls).toEqual([]);
    stop();
  });

  it('does not jump back when focus moves on to another field', () => {
    vi.useFakeTimers();
    const e = env(800);
    const stop = startKeyboardScroll(e);
    const first = field(700);
    const second = field(750, 'textarea');
    first.focus();
    vi.advanceTimersByTime(300);
    second.focus();
    vi.advanceTimersByTime(300);
    expect(e.scrolls).toEqual([220, 220 + 270]);
    second.blur();
    vi.advanceTimersByTime(100);
    expect(e.scrolls.at(-1)).toBe(0);
    stop();
  });
});
