import { describe, expect, it } from 'vitest';
import type { DetectedObject } from '../../adapters/vision/vision.js';
import { BACKGROUND_PERSON_HEIGHT, mergeObjects } from './frames-merge.js';

const HEIGHT = 720;
const personOf = (boxHeight: number, score = 0.8): DetectedObject => ({
  kind: 'person',
  label: 'person',
  score,
  box: [100, 100, boxHeight / 2.5, boxHeight],
});

describe('mergeObjects', () => {
  it('keeps the most of each kind seen at once, with its best sighting', () => {
    const merged = mergeObjects([
      { height: HEIGHT, objects: [personOf(400, 0.7), personOf(380, 0.9)] },
      { height: HEIGHT, objects: [personOf(410, 0.95)] },
    ]);
    expect(merged).toEqual([
      { kind: 'person', label: 'person', score: 0.95, box: [100, 100, 164, 410], count: 2 },
    ]);
  });

  it('counts people too small in the frame apart, as people in the background', () => {
    const small = BACKGROUND_PERSON_HEIGHT * HEIGHT - 1;
    const crowd = Array.from({ length: 10 }, () => personOf(small, 0.6));
    const merged = mergeObjects([{ height: HEIGHT, objects: [personOf(500), ...crowd] }]);
    expect(merged).toEqual([
      expect.objectContaining({ kind: 'person', score: 0.8 }),
      expect.objectContaining({ kind: 'person', score: 0.6, count: 10, background: true }),
    ]);
    expect(merged[0]).not.toHaveProperty('background');
    expect(merged[0]).not.toHaveProperty('count');
  });

  it('never puts vehicles or animals in the background, however small', () => {
    const car: DetectedObject = { kind: 'vehicle', label: 'car', score: 0.7, box: [0, 0, 20, 10] };
    expect(mergeObjects([{ height: HEIGHT, objects: [car] }])[0]).not.toHaveProperty('background');
  });
});
