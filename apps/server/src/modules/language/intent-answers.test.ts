import { describe, expect, it } from 'vitest';
import { householdReply, type HouseholdFacts } from './intent-answers.js';
import { futureReply } from './answer.js';
import { smalltalkReply } from './replies.js';

const facts: HouseholdFacts = {
  cameras: [
    {
      name: 'Front Door',
      siteName: 'Home',
      private: false,
      muted: false,
      offline: false,
      lastActivityAt: null,
    },
    { name: 'Driveway', siteName: 'Home', private: false, muted: true, offline: false, lastActivityAt: null },
    {
      name: 'Cabin Porch',
      siteName: 'Cabin',
      private: false,
      muted: false,
      offline: false,
      lastActivityAt: null,
    },
  ],
  sites: [
    { name: 'Home', cameraCount: 2 },
    { name: 'Cabin', cameraCount: 1 },
  ],
  memories: [
    { category: 'people', name: 'Barack', notes: 'My brother-in-law, he has a key' },
    { category: 'other', text: 'Barack comes on Sundays' },
  ],
};
const en = { language: 'en' as const, now: new Date('2026-11-17T02:18:00Z'), timezone: 'Europe/Berlin' };
const de = { ...en, language: 'de' as const };

describe('household answers about what the question names', () => {
  it.each([
    ['cameras', { siteNames: ['Cabin'] }, en, 'At Cabin you have one camera: Cabin Porch.'],
    ['muted', { cameraNames: ['Driveway'] }, en, 'Yes, the Driveway camera is muted.'],
    ['muted', { cameraNames: ['Front Door'] }, en, "No, the Front Door camera isn't muted."],
    [
      'muted',
      { cameraNames: ['Front Door'] },
      de,
      'Nein, die Kamera „Front Door“ ist nicht stummgeschaltet.',
    ],
    ['where', { cameraNames: ['Cabin Porch'] }, en, 'The Cabin Porch camera is at Cabin.'],
    [
      'memories',
      { memoryNames: ['Barack'] },
      en,
      'Barack: “My brother-in-law, he has a key” “Barack comes on Sundays”',
    ],
  ] as const)('%s %j (%#)', (topic, about, ctx, text) => {
    expect(householdReply(topic, facts, ctx, about)).toBe(text);
  });
});

describe('times still ahead and small talk', () => {
  it('says a future time has not happened yet, never "nothing"', () => {
    for (const what of ['tomorrow', 'later'] as const)
      for (const language of ['en', 'de'] as const) {
        const text = futureReply(what, language);
        expect(text).toMatch(/hasn't happened|can't see ahead|noch nicht|Zukunft/);
        expect(text).not.toMatch(/nothing|didn't see|nichts gesehen/);
      }
  });

  it.each([
    ['how_are_you', 'en', /doing well/],
    ['good_night', 'en', /Good night/],
    ['good_night', 'de', /Gute Nacht/],
    ['bye', 'de', /Tschüss/],
  ] as const)('%s in %s', (kind, language, re) => {
    expect(smalltalkReply(kind, language)).toMatch(re);
  });
});
