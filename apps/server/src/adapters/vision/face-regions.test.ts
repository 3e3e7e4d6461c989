import { describe, expect, it } from 'vitest';
import {
  MAX_FACE_REGIONS,
  MIN_PERSON_WIDTH,
  cropRgb,
  dedupeFaces,
  faceSearchRegions,
  headRegion,
  iou,
  nearPerson,
} from './face-regions.js';
import { solidImage } from './vision.test-support.js';
import type { Box } from './vision.js';

describe('where faces are searched', () => {
  it('looks at the upper part of a standing person, with a margin, inside the picture', () => {
    const region = headRegion([100, 100, 100, 300], 1000, 1000);
    expect(region[1]).toBeLessThan(100);
    expect(region[0]).toBeLessThan(100);
    expect(region[3]).toBeLessThan(300);
    const edge = headRegion([0, 0, 100, 300], 1000, 1000);
    expect(edge[0]).toBe(0);
    expect(edge[1]).toBe(0);
  });

  it('skips people too narrow to show a face, and searches at most a few', () => {
    expect(faceSearchRegions([[0, 0, MIN_PERSON_WIDTH - 1, 400]], 2000, 2000)).toEqual([]);
    const crowd: Box[] = Array.from({ length: 8 }, (_, i) => [i * 240, 100, 100, 300]);
    expect(faceSearchRegions(crowd, 2000, 2000)).toHaveLength(MAX_FACE_REGIONS);
  });

  it('searches a group standing together once', () => {
    const regions = faceSearchRegions(
      [
        [100, 100, 200, 500],
        [120, 110, 200, 480],
      ],
      1000,
      1000,
    );
    expect(regions).toHaveLength(1);
  });

  it('keeps a face from the whole picture only when it sits with a person', () => {
    const torso: Box = [400, 400, 120, 500];
    expect(nearPerson([380, 120, 200, 260], [torso])).toBe(true);
    expect(nearPerson([900, 100, 80, 80], [torso])).toBe(false);
  });

  it('crops pixels and drops the weaker of two detections of one face', () => {
    const rgb = solidImage(4, 3, [1, 2, 3], { box: [1, 1, 2, 1], rgb: [9, 9, 9] });
    expect(Array.from(cropRgb(rgb, 4, [1, 1, 2, 2]))).toEqual([9, 9, 9, 9, 9, 9, 1, 2, 3, 1, 2, 3]);
    const faces = dedupeFaces([
      { box: [0, 0, 100, 100] as Box, score: 0.8 },
      { box: [5, 5, 100, 100] as Box, score: 0.95 },
      { box: [300, 0, 100, 100] as Box, score: 0.7 },
    ]);
    expect(faces.map((f) => f.score)).toEqual([0.95, 0.7]);
    expect(iou([0, 0, 10, 10], [20, 20, 5, 5])).toBe(0);
  });
});
