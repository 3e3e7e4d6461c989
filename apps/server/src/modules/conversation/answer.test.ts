import { describe, expect, it } from 'vitest';
import { composeAnswer, MAX_CITED, type AnswerContext, type FoundActivity } from './answer.js';
import type { Language } from '../language/language.module.js';
import { parseQuestion, type ParsedQuestion, type QuestionContext } from './question.js';

const NOW = new Date('2025-06-11T14:30:00Z'); // Wednesday 16:30 in Berlin

const questionCtx: QuestionContext = {
  now: NOW,
  timezone: 'Europe/Berlin',
  language: 'en',
  cameras: [
    { name: 'Front Door', siteId: 'home' },
    { name: 'Driveway', siteId: 'home' },
    { name: 'Haustür', siteId: 'beach' },
  ],
  sites: [
    { id: 'home', name: 'Home' },
    { id: 'beach', name: 'Strandhaus' },
  ],
  memories: [{ uuid: 'rose', name: 'Rose', category: 'people' }],
};

function ask(text: string, language: Language = 'en') {
  return parseQuestion(text, { ...questionCtx, language }) as ParsedQuestion & { intent: 'search' };
}

function ctx(language: Language, extra: Partial<AnswerContext> = {}): AnswerContext {
  return {
    language,
    timezone: 'Europe/Berlin',
    now: NOW,
    siteNames: { home: 'Home', beach: 'Strandhaus' },
    memoryNames: { rose: 'Rose' },
    groupByProperty: false,
    ...extra,
  };
}

let seq = 0;
function activity(
  at: string,
  cameraName: string,
  siteId: string | null,
  extra: Partial<FoundActivity> = {},
): FoundActivity {
  seq += 1;
  return {
    id: `a${seq}`,
    cameraName,
    siteId,
    occurredAt: new Date(at),
    mediaKind: 'image',
    objects: [{ kind: 'person', label: 'person' }],
    recognised: [],
    ...extra,
  };
}
const roseAt = (at: string) =>
  activity(at, 'Front Door', 'home', {
    recognised: [{ category: 'people', name: 'Rose', memory_uuid: 'rose' }],
  });

describe('when nothing matched', () => {
  it.each<[string, Language, string]>([
    ['Did anyone come to the front door today?', 'en', "I didn't see anyone at the Front Door today."],
    ['War heute jemand an der Haustür?', 'de', 'Ich habe heute niemanden an der Haustür gesehen.'],
    ['Was Rose here yesterday?', 'en', "I didn't see Rose yesterday."],
    ['War Rose gestern da?', 'de', 'Ich habe Rose gestern nicht gesehen.'],
    ['Any cars in the driveway last night?', 'en', "I didn't see any cars in the Driveway last night."],
    ['Autos gestern nach 17 Uhr?', 'de', 'Ich habe gestern nach 17 Uhr keine Autos gesehen.'],
    ['What happened in the last 3 hours?', 'en', "I didn't see anything in the last 3 hours."],
    ['Was war im Strandhaus los?', 'de', 'Ich habe in den letzten 24 Stunden nichts im Strandhaus gesehen.'],
    ['people or dogs today?', 'en', "I didn't see anyone or any dogs today."],
  ])('%s', (text, language, expected) => {
    const answer = composeAnswer(ask(text, language), [], ctx(language));
    expect(answer).toEqual({ text: expected, cited: [] });
  });
});

describe('when something matched', () => {
  it('counts, says who and when, and lists the moments oldest first', () => {
    const found = [roseAt('2025-06-11T13:12:00Z'), activity('2025-06-11T09:02:00Z', 'Front Door', 'home')];
    const answer = composeAnswer(ask('Did anyone come to the front door today?'), found, ctx('en'));
    expect(answer.text).toBe(
      [
        'I saw people at the Front Door twice today:',
        '• A person walked up to the Front Door at 11:02 AM.',
        '• Rose walked up to the Front Door at 3:12 PM.',
        'Recognised: Rose.',
      ].join('\n'),
    );
    expect(answer.cited.map((a) => a.id)).toEqual([found[1]!.id, found[0]!.id]);
  });

  it('answers in German, with the stored German description where there is one', () => {
    const found = [
      roseAt('2025-06-11T13:12:00Z'),
      activity('2025-06-11T09:02:00Z', 'Haustür', 'beach', {
        descriptionLocalized: 'Ein Paketbote kam zur Haustür.',
      }),
    ];
    const answer = composeAnswer(ask('War heute jemand da?', 'de'), found, ctx('de'));
    expect(answer.text).toBe(
      [
        'Ich habe heute zweimal Personen gesehen:',
        '• Ein Paketbote kam zur Haustür.',
        '• Rose wurde um 15:12 von der Kamera „Front Door“ erfasst.',
        'Erkannt: Rose.',
      ].join('\n'),
    );
  });

  it('speaks of a memory asked about by name', () => {
    const answer = composeAnswer(ask('Was Rose here today?'), [roseAt('2025-06-11T13:12:00Z')], ctx('en'));
    expect(answer.text).toBe('I saw Rose once today:\n• Rose walked up to the Front Door at 3:12 PM.');
  });

  it('says the day of each moment when the window spans days', () => {
    const found = [
      activity('2025-06-10T18:00:00Z', 'Driveway', 'home', {
        objects: [{ kind: 'vehicle', label: 'car', color: 'white' }],
      }),
    ];
    const answer = composeAnswer(ask('Any cars in the last 24 hours?'), found, ctx('en'));
    expect(answer.text).toBe(
      'I saw a car in the last 24 hours:\n• Yesterday: A white car pulled into the Driveway at 8:00 PM.',
    );
  });

  it('cites at most five, the most relevant, and says how many more there were', () => {
    const strangers = Array.from({ length: 7 }, (_, i) =>
      activity(`2025-06-11T0${i + 1}:00:00Z`, 'Front Door', 'home'),
    );
    const motion = activity('2025-06-11T12:00:00Z', 'Front Door', 'home', { objects: [] });
    const rose = roseAt('2025-06-11T08:30:00Z');
    const answer = composeAnswer(ask('What happened today?'), [motion, rose, ...strangers], ctx('en'));
    expect(answer.cited).toHaveLength(MAX_CITED);
    expect(answer.cited).toContain(rose);
    expect(answer.cited).not.toContain(motion);
    expect(answer.text.split('\n')[0]).toBe('There were nine events today:');
    expect(answer.text).toContain('…and 4 more.');
    const times = answer.cited.map((a) => a.occurredAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('speaks of each property on its own when asked about none of several', () => {
    const home = activity('2025-06-11T09:00:00Z', 'Front Door', 'home');
    const beach = activity('2025-06-11T10:00:00Z', 'Haustür', 'beach', { objects: [] });
    const answer = composeAnswer(
      ask('What happened today?'),
      [beach, home],
      ctx('en', { groupByProperty: true }),
    );
    expect(answer.text).toBe(
      [
        'Home: There was one event today:',
        '• A person walked up to the Front Door at 11:00 AM.',
        '',
        'Strandhaus: There was one event today:',
        '• Motion on the Haustür camera at 12:00 PM.',
      ].join('\n'),
    );
    expect(answer.cited).toEqual([home, beach]);
  });

  it('quotes the notes that bear on the question', () => {
    const answer = composeAnswer(
      ask('When does the plumber come?'),
      [],
      ctx('en', { notes: ['The plumber comes on Tuesday'] }),
    );
    expect(answer.text).toBe(
      "I didn't see anyone in the last 24 hours.\nFrom your notes: “The plumber comes on Tuesday”",
    );
  });
});

describe('when the window has not come, is still running, or only the user knows it', () => {
  const askAt = (text: string, now: string, language: Language = 'en') =>
    parseQuestion(text, { ...questionCtx, now: new Date(now), language }) as ParsedQuestion & {
      intent: 'search';
    };
  const at = (now: string, language: Language) => ctx(language, { now: new Date(now) });
  const morning = '2026-06-10T10:12:00+02:00';

  it.each<[string, Language, string]>([
    ['Who was at the door at 3 PM?', 'en', "It's only 10:12 AM — 3 PM hasn't come yet today."],
    ['War um 15 Uhr jemand an der Haustür?', 'de', 'Es ist erst 10:12 Uhr – heute war es noch nicht 15 Uhr.'],
    ['Anything after 8 pm?', 'en', "It's only 10:12 AM — 8 PM hasn't come yet today."],
    ['Anything this evening?', 'en', "It's only 10:12 AM — this evening hasn't started yet."],
    ['Was war heute Abend los?', 'de', 'Es ist erst 10:12 Uhr – der Abend hat noch nicht begonnen.'],
    ['Any cars tonight?', 'en', "It's only 10:12 AM — tonight hasn't begun yet."],
  ])('%s says it has not happened yet, never "nothing"', (text, language, expected) => {
    const answer = composeAnswer(askAt(text, morning, language), [], at(morning, language));
    expect(answer).toEqual({ text: expected, cited: [] });
  });

  it.each<[string, Language, string]>([
    [
      'Did anyone come to the front door this afternoon?',
      'en',
      "I haven't seen anyone at the Front Door this afternoon so far.",
    ],
    [
      'War heute Nachmittag jemand an der Haustür?',
      'de',
      'Ich habe heute Nachmittag bisher niemanden an der Haustür gesehen.',
    ],
  ])('%s says "so far" for a window still running', (text, language, expected) => {
    expect(composeAnswer(ask(text, language), [], ctx(language)).text).toBe(expected);
  });

  it('counts what it found so far', () => {
    const found = [
      activity('2025-06-11T13:00:00Z', 'Driveway', 'home'),
      activity('2025-06-11T11:00:00Z', 'Driveway', 'home'),
    ];
    const answer = composeAnswer(ask('What happened this afternoon?'), found, ctx('en'));
    expect(answer.text.split('\n')[0]).toBe('There have been two events this afternoon so far:');
  });

  it('reads "at 3" asked at 3:18 AM as 3 AM, not a false all-clear for 3 PM', () => {
    const now = '2026-06-10T03:18:00+02:00';
    const q = askAt('who was at the front door at 3?', now);
    const found = [activity('2026-06-10T03:05:00+02:00', 'Front Door', 'home')];
    expect(composeAnswer(q, found, at(now, 'en')).text).toBe(
      "I've seen someone at the Front Door today around 3 AM so far:\n• A person walked up to the Front Door at 3:05 AM.",
    );
  });

  it.each<[string, Language, string]>([
    ['Any cars while I was out?', 'en', "I didn't see any cars in the last 8 hours."],
    ['War jemand da, während ich weg war?', 'de', 'Ich habe in den letzten 8 Stunden niemanden gesehen.'],
  ])('%s looks at the last hours when no time away is known, and says so', (text, language, expected) => {
    expect(composeAnswer(ask(text, language), [], ctx(language)).text).toBe(expected);
  });
});

describe('headlines count what one event shows (issue 32)', () => {
  const person = { kind: 'person' as const, label: 'person' };
  it('says three people, not someone, above an event with three people (EN and DE)', () => {
    const three = activity('2025-06-11T13:04:00Z', 'Front Door', 'home', {
      objects: [person, person, person, { ...person, background: true }],
    });
    expect(
      composeAnswer(ask('anyone at the front door today?'), [three], ctx('en')).text.split('\n')[0],
    ).toBe('I saw three people at the Front Door today:');
    expect(
      composeAnswer(ask('war heute jemand an der haustür?', 'de'), [three], ctx('de')).text.split('\n')[0],
    ).toBe('Ich habe heute drei Personen an der Haustür gesehen:');
  });

  it('says 18 cars, not a car, above a car park', () => {
    const car = { kind: 'vehicle' as const, label: 'car', color: 'silver' };
    const park = activity('2025-06-11T13:04:00Z', 'Driveway', 'home', {
      objects: Array.from({ length: 18 }, () => car),
    });
    expect(composeAnswer(ask('any cars in the driveway today?'), [park], ctx('en')).text.split('\n')[0]).toBe(
      'I saw 18 cars in the Driveway today:',
    );
  });
});
