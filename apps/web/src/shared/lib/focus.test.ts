import { describe, expect, it } from 'vitest';
import { focusStyle } from './focus';

describe('focusStyle', () => {
  it('puts the detected point where the cover crop keeps it', () => {
    expect(focusStyle({ x: 0.469, y: 0.382 })).toEqual({ objectPosition: '46.9% 38.2%' });
    expect(focusStyle({ x: 0, y: 1 })).toEqual({ objectPosition: '0% 100%' });
  });

  it('leaves the crop centred without a focus', () => {
    expect(focusStyle(undefined)).toEqual({});
  });
});
