import { describe, expect, it } from 'vitest';
import { normalizeCameraName } from './camera-name.js';

describe('camera names of uploads', () => {
  it('trims, collapses whitespace, drops control characters and bounds the length', () => {
    expect(normalizeCameraName('  Front \t  Door\n')).toBe('Front Door');
    expect(normalizeCameraName('Gate\u0000\u0007 1')).toBe('Gate 1');
    expect(normalizeCameraName('x'.repeat(150))).toHaveLength(100);
    expect(normalizeCameraName(`${'a'.repeat(99)}😀😀`)).toBe(`${'a'.repeat(99)}😀`);
  });

  it('names an upload without a name "Camera"', () => {
    for (const blank of ['', '   ', '\n\t', null, undefined])
      expect(normalizeCameraName(blank)).toBe('Camera');
  });

  it('leaves a name it made as it is (the processing applies it again to stored uploads)', () => {
    for (const raw of [
      '  Garden Gate ',
      'Gate\u0000 1',
      `${'a'.repeat(99)}😀😀`,
      'x'.repeat(150),
      '',
      'Front Door',
    ])
      expect(normalizeCameraName(normalizeCameraName(raw))).toBe(normalizeCameraName(raw));
  });
});
