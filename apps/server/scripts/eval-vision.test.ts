import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { cameraLabelsPath, readCameraLabels, type CameraItem } from '../eval/vision/camera-set.js';
import {
  detection,
  facesBySize,
  falsePersonsInEmpty,
  identification,
  pairFaces,
  personCount,
  type Seen,
} from '../eval/vision/score.js';

const item = (over: Partial<CameraItem>): CameraItem => ({
  name: 'x.jpg',
  split: 'tune',
  kinds: [],
  person_count: 0,
  night: false,
  faces: [],
  conditions: [],
  ...over,
});
const seen = (over: Partial<Seen> & { item: CameraItem }): Seen => ({
  best: { person: 0, vehicle: 0, animal: 0 },
  personScores: [[]],
  faces: [],
  objectMs: [],
  facesMs: [],
  ...over,
});

describe('scoring the camera eval set', () => {
  it('counts an item once per kind: said at or above the minimum score, against its labelled kinds', () => {
    const items = [
      seen({ item: item({ kinds: ['person'] }), best: { person: 0.5, vehicle: 0, animal: 0 } }),
      seen({ item: item({ kinds: ['person'] }), best: { person: 0.2, vehicle: 0, animal: 0 } }),
      seen({ item: item({ kinds: [] }), best: { person: 0.31, vehicle: 0, animal: 0 } }),
    ];
    expect(detection(items, 'person', 0.3)).toEqual({ precision: 0.5, recall: 0.5, tp: 1, fp: 1, fn: 1 });
    expect(falsePersonsInEmpty(items, 0.3)).toEqual({ said: ['x.jpg'], of: 1 });
  });

  it('counts people on stills with people only, and says which way a count misses', () => {
    const items = [
      seen({ item: item({ kinds: ['person'], person_count: 2 }), personScores: [[0.9, 0.4, 0.1]] }),
      seen({ item: item({ kinds: ['person'], person_count: 3 }), personScores: [[0.9]] }),
      seen({ item: item({ kinds: [], person_count: 0 }), personScores: [[0.9]] }),
      seen({ item: item({ name: 'c.mp4', kinds: ['person'] }), personScores: [[0.9], []] }),
    ];
    expect(personCount(items, 0.3)).toEqual({ exact: 1, under: 1, over: 0, of: 2 });
  });

  it('pairs found faces with labelled faces largest first, by height bucket', () => {
    const s = seen({
      item: item({
        faces: [
          { identity: 'A', height_px: 80, frontal: true },
          { identity: 'B', height_px: 20, frontal: true },
          { identity: 'C', height_px: 30, frontal: false },
        ],
      }),
      faces: [
        { height: 70, x: 0.5, descriptor: [] },
        { height: 25, x: 0.5, descriptor: [] },
      ],
    });
    const all = facesBySize([s], false);
    expect(all.rows.map((r) => [r.found, r.of])).toEqual([
      [0, 1],
      [1, 1],
      [0, 0],
      [1, 1],
    ]);
    expect(facesBySize([s], true).rows.map((r) => r.of)).toEqual([1, 0, 0, 1]);
  });

  it('pairs by position across the picture where the labels give it, so same-sized faces keep their identity', () => {
    const s = seen({
      item: item({
        faces: [
          { identity: 'A', height_px: 50, frontal: true, x: 0.2 },
          { identity: 'B', height_px: 50, frontal: true, x: 0.5 },
          { identity: 'C', height_px: 50, frontal: true, x: 0.8 },
        ],
      }),
      faces: [
        { height: 52, x: 0.78, descriptor: [] },
        { height: 48, x: 0.23, descriptor: [] },
        { height: 40, x: 0.02, descriptor: [] },
      ],
    });
    const { pairs, extra } = pairFaces(s);
    expect(pairs.map((p) => [p.face.identity, p.detected?.x])).toEqual([
      ['A', 0.23],
      ['B', undefined],
      ['C', 0.78],
    ]);
    expect(extra).toBe(1);
  });

  it('identifies leave-one-out: named when enrolled from another item, false when a stranger is named', () => {
    const one = (name: string, identity: string, d: number) =>
      seen({
        item: item({ name, faces: [{ identity, height_px: 50, frontal: true }] }),
        faces: [{ height: 50, x: 0.5, descriptor: [d] }],
      });
    const items = [one('a1', 'A', 0), one('a2', 'A', 0.1), one('b1', 'B', 5), one('s', 'unknown', 0.05)];
    const nearest = (d: number[], gallery: { memoryId: string; descriptor: number[] }[]) => {
      const best = [...gallery].sort(
        (x, y) => Math.abs(x.descriptor[0]! - d[0]!) - Math.abs(y.descriptor[0]! - d[0]!),
      )[0];
      return best && Math.abs(best.descriptor[0]! - d[0]!) < 1 ? best.memoryId : undefined;
    };
    // a1, a2: named A; b1: not enrolled elsewhere, matches nobody; the stranger is taken for A: false.
    expect(identification(items, nearest)).toEqual({ recurring: 2, named: 2, falseIds: 1, probes: 4 });
  });

  it('has committed labels that are well formed and split about half and half', () => {
    const items = readCameraLabels(cameraLabelsPath(resolve(import.meta.dirname, '..', '..', '..')));
    expect(items.length).toBeGreaterThanOrEqual(80);
    const tune = items.filter((i) => i.split === 'tune').length;
    expect(tune / items.length).toBeGreaterThan(0.4);
    expect(tune / items.length).toBeLessThan(0.6);
    for (const i of items) {
      expect(['tune', 'held-out']).toContain(i.split);
      for (const k of i.kinds) expect(['person', 'vehicle', 'animal']).toContain(k);
      const still = !i.name.endsWith('.mp4');
      if (still && !i.kinds.includes('person')) expect(i.person_count).toBe(0);
      if (still && i.kinds.includes('person')) expect(i.person_count).toBeGreaterThan(0);
      for (const f of i.faces) expect(f.height_px).toBeGreaterThan(0);
    }
  });
});
