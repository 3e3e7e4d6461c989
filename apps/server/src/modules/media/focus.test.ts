import { describe, expect, it } from 'vitest';
import { CENTRE, HEAD_SHARE, focusOf, type FocusObject } from './focus.js';

const person = (box: [number, number, number, number], background?: true): FocusObject => ({
  kind: 'person',
  box,
  ...(background ? { background } : {}),
});

describe('focusOf', () => {
  it('keeps a portrait’s face: the upper part of the person, not the middle of the picture', () => {
    // A head-and-shoulders portrait in a 1000×1500 picture: the box starts at the forehead.
    const focus = focusOf([person([200, 150, 600, 1350])], 1000, 1500);
    expect(focus.x).toBe(0.5);
    expect(focus.y).toBeCloseTo(Math.max(0, 150 - HEAD_SHARE * 1350) / 1500, 3);
    expect(focus.y).toBeLessThan(0.3);
  });

  it('takes the union of several people, so a group stays in frame', () => {
    const focus = focusOf([person([100, 200, 100, 400]), person([700, 300, 200, 500])], 1000, 1000);
    expect(focus.x).toBe(0.5); // from 100 to 900
    expect(focus.y).toBeCloseTo((200 - HEAD_SHARE * 600) / 1000, 3);
  });

  it('prefers people over a larger car, and people nearby over people in the background', () => {
    const car = { kind: 'vehicle', box: [0, 0, 900, 900] } as FocusObject;
    const focus = focusOf([car, person([800, 100, 100, 300]), person([0, 900, 10, 20], true)], 1000, 1000);
    expect(focus.x).toBe(0.85);
    expect(focus.y).toBeCloseTo((100 - HEAD_SHARE * 300) / 1000, 3);
  });

  it('uses people in the background when nobody is closer', () => {
    expect(focusOf([person([100, 100, 10, 20], true)], 1000, 1000).x).toBe(0.105);
  });

  it('centres on the largest vehicle or animal when there is nobody', () => {
    const objects: FocusObject[] = [
      { kind: 'animal', box: [0, 0, 100, 100] },
      { kind: 'vehicle', box: [600, 400, 400, 200] },
    ];
    expect(focusOf(objects, 1000, 1000)).toEqual({ x: 0.8, y: 0.5 });
  });

  it('is the centre without boxes or without the picture’s size, and never leaves the picture', () => {
    expect(focusOf([], 1000, 1000)).toEqual(CENTRE);
    expect(focusOf([{ kind: 'person' }], 1000, 1000)).toEqual(CENTRE);
    expect(focusOf([person([0, 0, 10, 10])], null, null)).toEqual(CENTRE);
    // A box from a larger frame than the stored size is clipped to the picture.
    expect(focusOf([person([1500, 1500, 600, 600])], 1000, 1000)).toEqual({ x: 1, y: 1 });
  });
});
