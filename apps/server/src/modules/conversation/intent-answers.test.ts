import { describe, expect, it } from 'vitest';
import { householdReply, type HouseholdFacts } from './household-answers.js';
import { futureReply } from './answer.js';
import { smalltalkReply } from './replies.js';
import { correctionNote, correctionNotedReply } from './correction-answers.js';
import type { DetectedObject } from '../language/language.module.js';
import type { FoundActivity } from './answer.js';
import { understand, type SearchQuestion } from './intent.js';
import { composeCount, composeNearMatch, personVisits } from './intent-answers.js';
import type { QuestionContext } from './question.js';

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

describe('a correction kept as a note when no alert takes it', () => {
  const correction = (text: string, name: string, language: 'en' | 'de') => ({
    intent: 'correction' as const,
    name,
    isCorrect: !/not|nicht/.test(text),
    language,
    text,
  });

  it.each([
    [
      correction("that's Tom", 'Tom', 'en'),
      false,
      'en',
      /^Thanks, noted: that was Tom\..*I don't know Tom yet/,
    ],
    [correction("that's not Barack", 'Barack', 'en'), true, 'en', /reply to it with “that's not Barack”/],
    [
      correction('das ist Tom', 'Tom', 'de'),
      false,
      'de',
      /^Danke, notiert: das war Tom\..*kenne ich noch nicht/,
    ],
    [
      { ...correction("that wasn't a cat", 'owl', 'en'), relabel: { was: 'cat', is: 'owl' } },
      false,
      'en',
      /it was an owl, not a cat/,
    ],
    [
      { ...correction('das war keine katze', 'fuchs', 'de'), relabel: { was: 'katze', is: 'fuchs' } },
      false,
      'de',
      /Fuchs statt Katze/,
    ],
  ] as const)('%#', (u, known, language, re) => {
    expect(correctionNotedReply(u, 'who was at the door?', known, language)).toMatch(re);
  });

  it('keeps the correction with the question it answers', () => {
    expect(correctionNote("that's Tom", 'who was at the door?', 'en')).toBe(
      "That's Tom (about “who was at the door?”)",
    );
  });
});

describe('counting people', () => {
  const question: QuestionContext = {
    now: new Date('2026-11-17T14:00:00Z'),
    timezone: 'Europe/Berlin',
    language: 'en',
    cameras: [{ name: 'Front Door', siteId: 'home' }],
    sites: [{ id: 'home', name: 'Home' }],
    memories: [],
  };
  const answerCtx = {
    ...en,
    now: question.now,
    siteNames: { home: 'Home' },
    memoryNames: {},
    groupByProperty: false,
  };
  const person: DetectedObject = { kind: 'person', label: 'person' };
  const at = (id: string, time: string, objects: DetectedObject[]): FoundActivity => ({
    id,
    cameraName: 'Front Door',
    siteId: 'home',
    occurredAt: new Date(`2026-11-17T${time}:00Z`),
    mediaKind: 'image',
    objects,
    recognised: [],
  });

  it('counts the people at the place, not a crowd in the background', () => {
    const u = understand('how many people came to the front door today?', question);
    expect(u.intent).toBe('count');
    const crowd = Array.from({ length: 10 }, () => ({ ...person, background: true }));
    const found = [at('a', '09:00', [person, ...crowd]), at('b', '10:00', [person, person])];
    if (u.intent !== 'count') return;
    const answer = composeCount(u.query, found, answerCtx);
    expect(answer.text.split('\n')[0]).toMatch(/^I saw three people .*\(over two visits;/);
  });

  it('counts the same people seen on two cameras a minute apart once, and says people, not events', () => {
    const u = understand('how many at the door today?', question);
    expect(u.intent).toBe('count');
    if (u.intent !== 'count') return;
    const door = at('a', '09:00', [person, person]);
    const drive = { ...at('b', '09:01', [person]), cameraName: 'Driveway' };
    const later = at('c', '11:00', [person]);
    expect(personVisits([door, drive, later])).toEqual({ people: 3, visits: 2 });
    const answer = composeCount(u.query, [door, drive, later], answerCtx);
    expect(answer.text.split('\n')[0]).toMatch(/^I saw three people .*\(over two visits;/);
    const de = composeCount(understandDe('wie viele leute waren heute da?'), [door], {
      ...answerCtx,
      language: 'de',
    });
    expect(de.text.split('\n')[0]).toMatch(/^Ich habe heute zwei Personen gesehen \(alle auf einmal\):/);
  });

  const understandDe = (text: string) => {
    const u = understand(text, { ...question, language: 'de' });
    if (u.intent !== 'count') throw new Error(`not a count: ${u.intent}`);
    return u.query;
  };
});

describe('near matches instead of a flat no', () => {
  const ctx = {
    ...en,
    now: new Date('2026-11-17T14:00:00Z'),
    siteNames: { home: 'Home' },
    memoryNames: {},
    groupByProperty: false,
  };
  const seen = (id: string, camera: string, time: string, objects: DetectedObject[]): FoundActivity => ({
    id,
    cameraName: camera,
    siteId: 'home',
    occurredAt: new Date(`2026-11-17T${time}:00Z`),
    mediaKind: 'image',
    objects,
    recognised: [],
  });
  const pickup = seen('v', 'Driveway', '14:16', [{ kind: 'vehicle', label: 'car', color: 'white' }]);
  const walker = seen('p', 'Front Door', '13:00', [{ kind: 'person', label: 'person' }]);
  const dog = seen('d', 'Backyard', '12:00', [{ kind: 'animal', label: 'dog' }]);
  const asked = (kinds: SearchQuestion['kinds'], labels?: string[]) =>
    ({ intent: 'search', allProperties: false, kinds, ...(labels ? { labels } : {}) }) as SearchQuestion;

  it('offers another vehicle for a truck, never a person for a car (EN and DE)', () => {
    const truck = asked(['vehicle'], ['truck']);
    expect(composeNearMatch(truck, "I didn't see any trucks today.", [pickup, walker], ctx)).toEqual({
      text: "I didn't see any trucks today, but the cameras saw a white car in the Driveway at 3:16 PM.",
      cited: [pickup],
    });
    expect(
      composeNearMatch(truck, 'Ich habe heute keine Lkw gesehen.', [pickup], { ...ctx, language: 'de' })
        ?.text,
    ).toBe(
      'Ich habe heute keine Lkw gesehen, aber an der Kamera „Driveway“ war um 15:16 ein weißes Auto zu sehen.',
    );
    expect(composeNearMatch(truck, "I didn't see any trucks today.", [walker], ctx)).toBeUndefined();
  });

  it('says what was seen instead when nobody came', () => {
    const people = asked(['person']);
    expect(composeNearMatch(people, "I didn't see anyone today.", [dog], ctx)?.text).toBe(
      "I didn't see anyone today, but the cameras saw a dog in the Backyard at 1:00 PM.",
    );
  });
});
