import { describe, expect, it } from 'vitest';
import { dropEchoes } from './echoes.js';
import type { DetectedObject } from './vision.js';

const person = (score: number, box: DetectedObject['box']): DetectedObject => ({
  kind: 'person',
  label: 'person',
  score,
  box,
});

describe('echoes of one detection', () => {
  it('makes one person of a portrait answered as a body plus weak boxes around it or inside it', () => {
    // person-obama-1.jpg and person-obama-2.jpg as CenterNet answers them.
    expect(dropEchoes([person(0.79, [375, 375, 127, 537]), person(0.28, [60, 48, 788, 1077])])).toHaveLength(
      1,
    );
    const two = [
      person(0.75, [5, 175, 611, 908]),
      person(0.33, [0, 164, 205, 864]),
      person(0.29, [472, 327, 147, 340]),
    ];
    expect(dropEchoes(two)).toEqual([two[0]]);
  });

  it('keeps people who stand together or in front of each other, and weak people elsewhere', () => {
    // doorbell-pair-f0.jpg: two people side by side; a child in front of an adult scores alike.
    const pair = [person(0.77, [254, 35, 187, 231]), person(0.73, [45, 48, 169, 220])];
    expect(dropEchoes(pair)).toEqual(pair);
    const inFront = [person(0.7, [100, 50, 200, 400]), person(0.6, [150, 250, 80, 180])];
    expect(dropEchoes(inFront)).toEqual(inFront);
    const apart = [person(0.69, [907, 355, 74, 179]), person(0.21, [581, 358, 48, 55])];
    expect(dropEchoes(apart)).toEqual(apart);
  });

  it('only compares boxes of the same label', () => {
    const car: DetectedObject = { kind: 'vehicle', label: 'car', score: 0.2, box: [110, 60, 50, 50] };
    expect(dropEchoes([person(0.8, [100, 50, 200, 400]), car])).toHaveLength(2);
  });
});
