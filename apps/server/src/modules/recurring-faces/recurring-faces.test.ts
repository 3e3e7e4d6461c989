import { describe, expect, it } from 'vitest';
import {
  groupFaces,
  isRecurring,
  offerText,
  parseOfferAnswer,
  wasOffered,
  type UnknownFace,
} from './recurring-faces.js';

/** A person's face: one distinctive component, plus a little per-sighting noise (0.43–0.47 apart, like the fixtures). */
function descriptor(person: number, sighting: number): number[] {
  return Array.from({ length: 128 }, (_, i) => {
    if (i === person) return 1;
    if (i === (person + 1 + (sighting % 5)) % 128) return 0.32;
    return 0;
  });
}

let n = 0;
const sighting = (person: number, at: string): UnknownFace => ({
  id: `face-${++n}`,
  activityId: `activity-${n}`,
  descriptor: descriptor(person, n),
  box: [100, 100, 80, 80],
  occurredAt: new Date(at),
});

describe('grouping unknown faces', () => {
  it('groups the same person seen on several days, and keeps different people apart', () => {
    const faces = [
      sighting(1, '2026-06-01T08:00:00Z'),
      sighting(2, '2026-06-01T08:05:00Z'),
      sighting(1, '2026-06-02T08:00:00Z'),
      sighting(2, '2026-06-03T12:00:00Z'),
      sighting(1, '2026-06-04T08:00:00Z'),
      sighting(3, '2026-06-04T09:00:00Z'),
    ];
    const groups = groupFaces(faces, 'UTC');
    expect(groups.map((g) => g.faces.length)).toEqual([3, 2, 1]);
    const [tom, ann, once] = groups;
    expect(tom).toMatchObject({ visits: 3, days: 3 });
    expect(isRecurring(tom!)).toBe(true);
    expect(ann).toMatchObject({ visits: 2, days: 2 });
    expect(isRecurring(ann!)).toBe(false);
    expect(isRecurring(once!)).toBe(false);
  });

  it('counts sightings within half an hour as one visit, and days in the owner’s time zone', () => {
    const faces = [
      sighting(5, '2026-06-01T21:30:00Z'), // 23:30 in Berlin, June 1
      sighting(5, '2026-06-01T21:45:00Z'), // the same visit
      sighting(5, '2026-06-01T22:30:00Z'), // 00:30 in Berlin, June 2
    ];
    expect(groupFaces(faces, 'UTC')[0]).toMatchObject({ visits: 2, days: 1 });
    expect(groupFaces(faces, 'Europe/Berlin')[0]).toMatchObject({ visits: 2, days: 2 });
  });

  it('offers four visits on two days, but never many visits on one day', () => {
    expect(isRecurring({ days: 2, visits: 4 })).toBe(true);
    expect(isRecurring({ days: 2, visits: 3 })).toBe(false);
    expect(isRecurring({ days: 1, visits: 9 })).toBe(false);
    expect(isRecurring({ days: 3, visits: 3 })).toBe(true);
  });

  it('knows a grown group, or the same person again, as one already offered', () => {
    const first = groupFaces(
      [sighting(7, '2026-06-01T08:00:00Z'), sighting(7, '2026-06-02T08:00:00Z')],
      'UTC',
    )[0]!;
    const offered = [{ centroid: first.centroid, faceIds: first.faces.map((f) => f.id) }];
    const grown = groupFaces([...first.faces, sighting(7, '2026-06-05T08:00:00Z')], 'UTC')[0]!;
    expect(wasOffered(grown, offered)).toBe(true);
    const later = groupFaces([sighting(7, '2026-06-09T08:00:00Z')], 'UTC')[0]!;
    expect(wasOffered(later, offered)).toBe(true);
    const someoneElse = groupFaces([sighting(9, '2026-06-09T08:00:00Z')], 'UTC')[0]!;
    expect(wasOffered(someoneElse, offered)).toBe(false);
  });
});

describe('the offer and its answer', () => {
  it('says how often and over what period, in English and German', () => {
    expect(offerText(4, 7, 'en')).toMatch(
      /^Someone I don't know has been here 4 times this week — do you know them\?/,
    );
    expect(offerText(3, 3, 'en')).toMatch(/here 3 times in the last 3 days/);
    expect(offerText(4, 6, 'de')).toMatch(/^Jemand, den ich nicht kenne, war diese Woche 4-mal hier/);
  });

  it.each([
    ["that's Tom, my neighbour", 'Tom', 'my neighbour'],
    ['That is Tom', 'Tom', null],
    ['das ist Tom', 'Tom', null],
    ['Das ist Tom, unser Gärtner', 'Tom', 'unser Gärtner'],
    ["yes, it's Uncle Bob (the plumber)", 'Uncle Bob', 'the plumber'],
    ["that's my neighbour Tom", 'Tom', 'my neighbour'],
    ["that's tom", 'Tom', null],
    ['Rose', 'Rose', null],
    ['Tom Miller', 'Tom Miller', null],
  ])('reads %j as the name %j', (text, name, notes) => {
    expect(parseOfferAnswer(text)).toMatchObject({ kind: 'name', name, notes });
  });

  it.each([
    'no',
    "I don't know",
    'No idea.',
    'nope',
    'nein',
    'Keine Ahnung',
    'ich weiß nicht',
    'kenne ich nicht',
  ])('reads %j as a dismissal', (text) => {
    expect(parseOfferAnswer(text)).toMatchObject({ kind: 'dismiss' });
  });

  it.each(['who is it?', 'what happened today', 'thanks', "that's great", 'Why?'])(
    'leaves %j to the assistant',
    (text) => {
      expect(parseOfferAnswer(text)).toBeUndefined();
    },
  );
});
