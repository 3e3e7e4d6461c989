import { describe, expect, it } from 'vitest';
import { colourOfPixel, dominantColour } from './vehicle-colour.js';
import type { Box } from './vision.js';
import { solidImage } from './vision.test-support.js';

describe('vehicle colour', () => {
  it('names pixels by hue, saturation and brightness', () => {
    expect(colourOfPixel(250, 250, 250)).toBe('white');
    expect(colourOfPixel(170, 172, 175)).toBe('silver');
    expect(colourOfPixel(100, 100, 104)).toBe('grey');
    expect(colourOfPixel(15, 15, 20)).toBe('black');
    expect(colourOfPixel(200, 20, 30)).toBe('red');
    expect(colourOfPixel(30, 60, 180)).toBe('blue');
    expect(colourOfPixel(40, 150, 60)).toBe('green');
    expect(colourOfPixel(230, 210, 40)).toBe('yellow');
    expect(colourOfPixel(110, 70, 30)).toBe('brown');
  });

  it('takes the paint from the middle of the box, not the road around it', () => {
    const box: Box = [20, 20, 60, 40];
    const rgb = solidImage(100, 80, [90, 90, 90], { box, rgb: [190, 20, 25] });
    expect(dominantColour(rgb, 100, 80, box)).toBe('red');
  });

  it('lets a colour beat the grey and black of windows and tyres when it has a fair share', () => {
    // A blue body whose middle band is two-thirds dark glass.
    const box: Box = [0, 0, 100, 100];
    const rgb = solidImage(100, 100, [30, 60, 170], { box: [0, 30, 100, 33], rgb: [20, 20, 22] });
    expect(dominantColour(rgb, 100, 100, box)).toBe('blue');
  });

  it('says white for a white car and nothing for a box too small to judge', () => {
    const rgb = solidImage(50, 50, [240, 240, 238]);
    expect(dominantColour(rgb, 50, 50, [0, 0, 50, 50])).toBe('white');
    expect(dominantColour(rgb, 50, 50, [10, 10, 3, 3])).toBeUndefined();
  });
});
