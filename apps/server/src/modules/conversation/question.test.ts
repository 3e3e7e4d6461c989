import { describe, expect, it } from 'vitest';
import type { Language } from '../language/language.module.js';
import { parseQuestion, type ParsedQuestion, type QuestionContext } from './question.js';
import { windowPhrase } from './window-label.js';

// Wednesday 11 June 2025, 16:30 in Berlin (UTC+2); the local day began at 10 June 22:00 UTC.
const NOW = new Date('2025-06-11T14:30:00Z');
const EIGHT_HOURS_AGO = new Date(NOW.getTime() - 8 * 3_600_000).toISOString();
const ctx: QuestionContext = {
  now: NOW,
  timezone: 'Europe/Berlin',
  language: 'en',
  cameras: [
    { name: 'Front Door', siteId: 'home' },
    { name: 'Driveway', siteId: 'home' },
    { name: 'Haustür', siteId: 'beach' },
    { name: 'Garten', siteId: 'beach' },
    { name: 'Shed', siteId: null },
  ],
  sites: [
    { id: 'home', name: 'Home' },
    { id: 'beach', name: 'Strandhaus' },
  ],
  memories: [
    { uuid: 'rose', name: 'Rose', category: 'people' },
    { uuid: 'bella', name: 'Bella', category: 'animals' },
    { uuid: 'note', name: 'Gate code', category: 'other' },
  ],
};

type Expected = Partial<Omit<ParsedQuestion, 'from' | 'to'>> & { from?: string; to?: string; said?: string };

const today = { from: '2025-06-10T22:00:00.000Z', to: NOW.toISOString() };
const last24 = { from: '2025-06-10T14:30:00.000Z', to: NOW.toISOString() };

const table: [string, Language, Expected][] = [
  // time phrases, English
  ['What happened today?', 'en', { ...today, said: 'today' }],
  [
    'Anything yesterday?',
    'en',
    { from: '2025-06-09T22:00:00.000Z', to: '2025-06-10T22:00:00.000Z', said: 'yesterday' },
  ],
  [
    'What happened last night?',
    'en',
    { from: '2025-06-10T16:00:00.000Z', to: '2025-06-11T04:00:00.000Z', said: 'last night' },
  ],
  [
    'Who came by this morning?',
    'en',
    {
      from: '2025-06-10T22:00:00.000Z',
      to: '2025-06-11T10:00:00.000Z',
      kinds: ['person'],
      said: 'this morning',
    },
  ],
  [
    'anything this afternoon',
    'en',
    { from: '2025-06-11T10:00:00.000Z', to: NOW.toISOString(), said: 'this afternoon' },
  ],
  [
    'this evening',
    'en',
    { from: '2025-06-11T16:00:00.000Z', to: '2025-06-11T16:00:00.000Z', said: 'this evening' },
  ],
  [
    'Any cars yesterday after 5?',
    'en',
    {
      from: '2025-06-10T15:00:00.000Z',
      to: '2025-06-10T22:00:00.000Z',
      kinds: ['vehicle'],
      labels: ['car'],
      said: 'yesterday after 5 PM',
    },
  ],
  [
    'Anything in the last 3 hours?',
    'en',
    { from: '2025-06-11T11:30:00.000Z', to: NOW.toISOString(), said: 'in the last 3 hours' },
  ],
  [
    'in the past 45 minutes',
    'en',
    { from: '2025-06-11T13:45:00.000Z', to: NOW.toISOString(), said: 'in the last 45 minutes' },
  ],
  [
    'What did I miss while I was out?',
    'en',
    // No time away known: the last 8 hours, said as such (the answer offers to narrow it).
    { from: EIGHT_HOURS_AGO, to: NOW.toISOString(), said: 'in the last 8 hours' },
  ],
  [
    'Was Rose here on Monday?',
    'en',
    {
      from: '2025-06-08T22:00:00.000Z',
      to: '2025-06-09T22:00:00.000Z',
      memoryIds: ['rose'],
      said: 'on Monday',
    },
  ],
  [
    'last Friday',
    'en',
    { from: '2025-06-05T22:00:00.000Z', to: '2025-06-06T22:00:00.000Z', said: 'on Friday' },
  ],
  [
    'What happened last week?',
    'en',
    { from: '2025-06-01T22:00:00.000Z', to: '2025-06-08T22:00:00.000Z', said: 'last week' },
  ],
  [
    'in the last week',
    'en',
    { from: '2025-06-04T14:30:00.000Z', to: NOW.toISOString(), said: 'in the last 7 days' },
  ],
  [
    'between 2 and 4 pm',
    'en',
    { from: '2025-06-11T12:00:00.000Z', to: '2025-06-11T14:00:00.000Z', said: 'today between 2 PM and 4 PM' },
  ],
  [
    'since 6pm',
    'en',
    { from: '2025-06-10T16:00:00.000Z', to: NOW.toISOString(), said: 'since 6 PM yesterday' },
  ],
  [
    'on June 3rd',
    'en',
    { from: '2025-06-02T22:00:00.000Z', to: '2025-06-03T22:00:00.000Z', said: 'on Jun 3' },
  ],
  [
    'yesterday morning',
    'en',
    { from: '2025-06-09T22:00:00.000Z', to: '2025-06-10T10:00:00.000Z', said: 'yesterday morning' },
  ],
  [
    'over the weekend',
    'en',
    { from: '2025-06-06T22:00:00.000Z', to: '2025-06-08T22:00:00.000Z', said: 'over the weekend' },
  ],
  ['last 24h', 'en', { ...last24, said: 'in the last 24 hours' }],
  // time phrases, German
  ['Was war heute los?', 'de', { ...today, said: 'heute' }],
  [
    'Was ist letzte Nacht passiert?',
    'de',
    { from: '2025-06-10T16:00:00.000Z', to: '2025-06-11T04:00:00.000Z', said: 'letzte Nacht' },
  ],
  [
    'War gestern nach 17 Uhr jemand da?',
    'de',
    {
      from: '2025-06-10T15:00:00.000Z',
      to: '2025-06-10T22:00:00.000Z',
      kinds: ['person'],
      said: 'gestern nach 17 Uhr',
    },
  ],
  [
    'in den letzten 2 Stunden',
    'de',
    { from: '2025-06-11T12:30:00.000Z', to: NOW.toISOString(), said: 'in den letzten 2 Stunden' },
  ],
  [
    'in der letzten Stunde',
    'de',
    { from: '2025-06-11T13:30:00.000Z', to: NOW.toISOString(), said: 'in der letzten Stunde' },
  ],
  [
    'heute Morgen',
    'de',
    { from: '2025-06-10T22:00:00.000Z', to: '2025-06-11T10:00:00.000Z', said: 'heute Morgen' },
  ],
  [
    'gestern Abend',
    'de',
    { from: '2025-06-10T16:00:00.000Z', to: '2025-06-10T22:00:00.000Z', said: 'gestern Abend' },
  ],
  [
    'vorgestern',
    'de',
    { from: '2025-06-08T22:00:00.000Z', to: '2025-06-09T22:00:00.000Z', said: 'vorgestern' },
  ],
  [
    'am Montagabend',
    'de',
    { from: '2025-06-09T16:00:00.000Z', to: '2025-06-09T22:00:00.000Z', said: 'am Montagabend' },
  ],
  [
    'letzte Woche',
    'de',
    { from: '2025-06-01T22:00:00.000Z', to: '2025-06-08T22:00:00.000Z', said: 'letzte Woche' },
  ],
  [
    'zwischen 14 und 16 Uhr',
    'de',
    {
      from: '2025-06-11T12:00:00.000Z',
      to: '2025-06-11T14:00:00.000Z',
      said: 'heute zwischen 14 und 16 Uhr',
    },
  ],
  [
    'am 3. Juni',
    'de',
    { from: '2025-06-02T22:00:00.000Z', to: '2025-06-03T22:00:00.000Z', said: 'am 3. Juni' },
  ],
  [
    'letzten Mittwoch',
    'de',
    { from: '2025-06-03T22:00:00.000Z', to: '2025-06-04T22:00:00.000Z', said: 'am Mittwoch' },
  ],
  [
    'seit 15 Uhr',
    'de',
    { from: '2025-06-11T13:00:00.000Z', to: NOW.toISOString(), said: 'heute nach 15 Uhr' },
  ],
  [
    'während ich weg war',
    'de',
    { from: EIGHT_HOURS_AGO, to: NOW.toISOString(), said: 'in den letzten 8 Stunden' },
  ],
  // cameras, properties, kinds, memories
  [
    'Did anyone come to the front door today?',
    'en',
    { ...today, cameraNames: ['Front Door'], siteIds: ['home'], kinds: ['person'] },
  ],
  [
    "Any visitors at the FRONT DOOR's camera?",
    'en',
    { cameraNames: ['Front Door'], siteIds: ['home'], kinds: ['person'] },
  ],
  ['War jemand an der Haustuer?', 'de', { cameraNames: ['Haustür'], siteIds: ['beach'], kinds: ['person'] }],
  [
    'War die Katze im Garten?',
    'de',
    { cameraNames: ['Garten'], siteIds: ['beach'], kinds: ['animal'], labels: ['cat'] },
  ],
  ['Anything at the Strandhaus?', 'en', { siteIds: ['beach'] }],
  ['anything in the shed', 'en', { cameraNames: ['Shed'] }],
  ['Was Bella outside?', 'en', { memoryIds: ['bella'] }],
  ['Any trucks or vans?', 'en', { kinds: ['vehicle'], labels: ['truck'] }],
  ['Fahrzeuge oder Autos?', 'de', { kinds: ['vehicle'] }],
  ['people and dogs', 'en', { kinds: ['person', 'animal'], labels: ['dog'] }],
  ['Hunde oder Katzen', 'de', { kinds: ['animal'], labels: ['dog', 'cat'] }],
  ['Any animals everywhere?', 'en', { kinds: ['animal'], allProperties: true }],
  ['Was war überall los?', 'de', { allProperties: true }],
  ['Do you remember Rose?', 'en', { intent: 'search', memoryIds: ['rose'] }],
  // intents
  ['Hi!', 'en', { intent: 'smalltalk', smalltalk: 'greeting' }],
  ['Danke schön', 'de', { intent: 'smalltalk', smalltalk: 'thanks' }],
  ['What can you do?', 'en', { intent: 'smalltalk', smalltalk: 'help' }],
  ['Hi, was anyone here today?', 'en', { intent: 'search', kinds: ['person'], ...today }],
];

describe('parseQuestion', () => {
  it.each(table)('%s', (text, language, expected) => {
    const { said, from, to, ...rest } = expected;
    const q = parseQuestion(text, { ...ctx, language });
    expect(q).toMatchObject({ intent: 'search', allProperties: false, ...rest });
    if (from) expect(q.from?.toISOString()).toBe(from);
    if (to) expect(q.to?.toISOString()).toBe(to);
    if (said) expect(windowPhrase(q.window!, language)).toBe(said);
    if (!rest.kinds) expect(q.kinds).toBeUndefined();
    if (!rest.cameraNames) expect(q.cameraNames).toBeUndefined();
  });

  it('searches the last 24 hours when no time is named', () => {
    const q = parseQuestion('Anyone at the driveway?', ctx);
    expect(q.from?.toISOString()).toBe(last24.from);
    expect(q.to).toEqual(NOW);
    expect(q.window).toEqual({ type: 'recent', amount: 24, unit: 'hour', implicit: true });
  });

  it('does not read a camera name as a kind or a time', () => {
    const q = parseQuestion('anything at the dog house?', {
      ...ctx,
      cameras: [{ name: 'Dog House', siteId: 'home' }],
    });
    expect(q).toMatchObject({ cameraNames: ['Dog House'], siteIds: ['home'] });
    expect(q.kinds).toBeUndefined();
  });

  it('prefers the longer of two camera names', () => {
    const q = parseQuestion('front door left today', {
      ...ctx,
      cameras: [
        { name: 'Front Door', siteId: 'home' },
        { name: 'Front Door Left', siteId: 'home' },
      ],
    });
    expect(q.cameraNames).toEqual(['Front Door Left']);
  });
});

describe('remember', () => {
  it.each<[string, string, string | undefined]>([
    [
      'Remember that the plumber comes on Tuesday',
      'The plumber comes on Tuesday',
      '2025-06-17T22:00:00.000Z',
    ],
    ['Please remember: the gate code is 1234', 'The gate code is 1234', undefined],
    [
      "Don't forget that my sister visits this weekend.",
      'My sister visits this weekend.',
      '2025-06-15T22:00:00.000Z',
    ],
    ['Merk dir, dass der Klempner morgen kommt', 'Der Klempner kommt morgen', '2025-06-12T22:00:00.000Z'],
    [
      'Merk dir dass meine Schwester am Freitag zu Besuch kommt.',
      'Meine Schwester kommt am Freitag zu Besuch',
      '2025-06-13T22:00:00.000Z',
    ],
    ['Merk dir: Otto hat einen neuen Golf', 'Otto hat einen neuen Golf', undefined],
    ['Denk dran, heute kommt das Paket', 'Heute kommt das Paket', '2025-06-11T22:00:00.000Z'],
  ])('%s', (text, note, until) => {
    const q = parseQuestion(text, ctx);
    expect(q).toMatchObject({ intent: 'remember', rememberText: note });
    expect(q.rememberUntil?.toISOString()).toBe(until);
  });

  it('a question about remembering is a search, not a note', () => {
    expect(parseQuestion('Remember when Rose came by?', ctx).intent).toBe('search');
  });
});
