import { describe, expect, it } from 'vitest';
import { understand } from './intent.js';
import type { QuestionContext } from './question.js';
import { watchCreatedReply, watchListReply, watchMatchText, type WatchFacts } from './watch-answers.js';
import { watchOf, type WatchAction, type WatchRequest } from './watch-phrases.js';

/** Berlin is UTC+1 in November: local wall time `hh:mm` on Tuesday 17 November 2026. */
const at = (hhmm: string, day = 17) => new Date(`2026-11-${day}T${hhmm}:00+01:00`);

const context = (now: Date, language: 'en' | 'de' = 'en'): QuestionContext => ({
  now,
  timezone: 'Europe/Berlin',
  language,
  cameras: [
    { name: 'Front Door', siteId: 'home' },
    { name: 'Driveway', siteId: 'home' },
    { name: 'Cabin Porch', siteId: 'cabin' },
  ],
  sites: [
    { id: 'home', name: 'Home' },
    { id: 'cabin', name: 'Cabin' },
  ],
  memories: [
    { uuid: 'bella', name: 'Bella', category: 'animals' },
    { uuid: 'rose', name: 'Rose', category: 'people' },
  ],
});

function created(text: string, now = at('14:00'), language: 'en' | 'de' = 'en'): WatchRequest {
  const action = watchOf(text, context(now, language));
  if (action?.action !== 'create') throw new Error(`"${text}" was read as ${JSON.stringify(action)}`);
  return action.request;
}

describe('watch requests are understood', () => {
  const cases: [string, Partial<WatchRequest>][] = [
    [
      'tell me when a car arrives in the driveway in the next two hours',
      { kinds: ['vehicle'], labels: ['car'], cameraNames: ['Driveway'], repeat: 'once', channel: 'usual' },
    ],
    ['text me if anyone is at the cabin tonight', { kinds: ['person'], siteIds: ['cabin'], channel: 'sms' }],
    ['let me know when the dog is back', { kinds: ['animal'], labels: ['dog'], defaulted: true }],
    ['let me know when Bella is back', { memoryIds: ['bella'] }],
    [
      'Sag mir Bescheid, wenn heute Abend jemand an der Hütte ist',
      { kinds: ['person'], siteIds: ['cabin'], language: 'de', channel: 'usual' },
    ],
    [
      'schreib mir, wenn ein Auto in die Einfahrt fährt',
      { kinds: ['vehicle'], labels: ['car'], cameraNames: ['Driveway'], language: 'de', channel: 'sms' },
    ],
    [
      'every time someone is at the door, text me',
      { kinds: ['person'], cameraNames: ['Front Door'], repeat: 'every_time', channel: 'sms' },
    ],
    [
      'Jedes Mal, wenn jemand an der Haustür ist, schreib mir',
      { kinds: ['person'], cameraNames: ['Front Door'], repeat: 'every_time', language: 'de' },
    ],
    // Typos are fixed as in questions.
    ['tell me wehn a car is in teh drivway', { labels: ['car'], cameraNames: ['Driveway'] }],
    ['please notify me whenever a truck comes', { labels: ['truck'], repeat: 'every_time' }],
    ['let me know when the dgo is back', { labels: ['dog'] }],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(created(text)).toMatchObject(expected);
  });

  it('reads "in the next two hours", "for the next hour" and "until 6" forwards from now', () => {
    const now = at('14:00');
    expect(created('tell me when a car arrives in the next two hours', now)).toMatchObject({
      from: now,
      to: at('16:00'),
      defaulted: false,
    });
    expect(created('let me know if someone comes for the next hour', now).to).toEqual(at('15:00'));
    expect(created('sag mir bescheid wenn jemand kommt in den nächsten 30 Minuten', now).to).toEqual(
      at('14:30'),
    );
    // A bare 6 is whichever 6 o'clock comes first: 6 PM at 2 PM, 6 AM at 11 PM.
    expect(created('tell me if someone comes until 6', now).to).toEqual(at('18:00'));
    expect(created('tell me if someone comes until 6', at('23:00')).to).toEqual(at('06:00', 18));
    expect(created('sag mir bescheid wenn jemand kommt, bis 18 Uhr', now).to).toEqual(at('18:00'));
  });

  it('starts "tonight" asked at 2 PM at 6 PM, and asked at 11:30 PM now, until 6 AM', () => {
    expect(created('text me if anyone is at the cabin tonight', at('14:00'))).toMatchObject({
      from: at('18:00'),
      to: at('06:00', 18),
    });
    const late = at('23:30');
    expect(created('text me if anyone is at the cabin tonight', late)).toMatchObject({
      from: late,
      to: at('06:00', 18),
    });
    expect(created('sag mir bescheid wenn heute nacht jemand kommt', at('03:00'))).toMatchObject({
      from: at('03:00'),
      to: at('06:00'),
    });
  });

  it('watches 24 hours when no time is said', () => {
    const now = at('14:00');
    expect(created('let me know when the dog is back', now)).toMatchObject({
      from: now,
      to: at('14:00', 18),
      defaulted: true,
    });
  });

  it('refuses a window that is over', () => {
    const refuse = (text: string, now = at('14:00')) => watchOf(text, context(now))?.action;
    expect(refuse('tell me when someone is at the door this morning')).toBe('refuse_past');
    expect(refuse('let me know if a car comes last night')).toBe('refuse_past');
    expect(refuse('sag mir bescheid wenn gestern jemand kommt')).toBe('refuse_past');
    expect(refuse('tell me if a car comes until 1 pm')).toBe('create');
  });

  it('leaves questions about the past to the search', () => {
    for (const text of [
      'let me know if anyone came yesterday',
      'tell me if there was anyone at the door',
      'tell me what happened today',
      'Sag mir, ob heute jemand da war',
    ])
      expect(understand(text, context(at('14:00'))).intent, text).not.toBe('watch');
  });
});

describe('listing and cancelling', () => {
  const read = (text: string): WatchAction | undefined => watchOf(text, context(at('14:00')));
  it.each(['what are you watching for?', 'What are you watching', 'Worauf achtest du?', 'my watches'])(
    '%s lists',
    (text) => expect(read(text)?.action).toBe('list'),
  );
  it.each(['stop', 'Stop watching', 'cancel that', 'hör auf', 'Stopp', 'never mind'])(
    '%s cancels the latest',
    (text) => expect(read(text)).toMatchObject({ action: 'cancel', target: { type: 'latest' } }),
  );
  it('cancels by place or subject, or all', () => {
    expect(read('forget the driveway watch')).toMatchObject({
      action: 'cancel',
      target: { type: 'named', cameraNames: ['Driveway'] },
    });
    expect(read('stop watching the cabin')).toMatchObject({ target: { type: 'named', siteIds: ['cabin'] } });
    expect(read('cancel the dog watch')).toMatchObject({ target: { type: 'named', labels: ['dog'] } });
    expect(read('Hör auf, auf die Einfahrt zu achten')).toMatchObject({
      target: { type: 'named', cameraNames: ['Driveway'] },
    });
    expect(read('stop all watches')).toMatchObject({ target: { type: 'all' } });
  });
  it('leaves other messages with "stop" alone', () => {
    for (const text of ['did Rose stop by today?', 'stop sending me alerts about the cat', 'what stopped?'])
      expect(understand(text, context(at('14:00'))).intent, text).not.toBe('watch');
  });
});

describe('what the home sitter says', () => {
  const talk = { language: 'en' as const, timezone: 'Europe/Berlin', now: at('04:18') };
  const car: WatchFacts = {
    kinds: ['vehicle'],
    labels: ['car'],
    memoryNames: [],
    cameraNames: ['Driveway'],
    siteNames: [],
    from: at('04:18'),
    to: at('05:18'),
    repeat: 'once',
    channel: 'usual',
  };
  it('confirms in the question’s language, on the profile’s clock', () => {
    expect(watchCreatedReply(car, false, 24, talk)).toBe(
      "OK — I'll tell you when a car shows up in the Driveway until 5:18 AM.",
    );
    expect(watchCreatedReply({ ...car, channel: 'sms' }, true, 24, talk)).toBe(
      "OK — I'll text you when a car shows up in the Driveway until 5:18 AM. You didn't say for how long, so I'll watch for the next 24 hours.",
    );
    expect(
      watchCreatedReply(
        {
          ...car,
          kinds: ['person'],
          labels: [],
          cameraNames: [],
          siteNames: ['Cabin'],
          from: at('18:00'),
          to: at('06:00', 18),
        },
        false,
        24,
        { ...talk, language: 'de', now: at('14:00') },
      ),
    ).toBe(
      'OK – ich sage dir Bescheid, wenn jemand im Objekt „Cabin“ auftaucht, ab 18:00 Uhr bis morgen um 06:00 Uhr.',
    );
  });
  it('lists and alerts', () => {
    expect(watchListReply([{ ...car, repeat: 'every_time' }], talk)).toBe(
      "I'm watching for:\n• a car in the Driveway, until 5:18 AM (every time)",
    );
    expect(watchMatchText(car, 'A white car pulled into the Driveway at 5:02 AM.', 'en')).toBe(
      'You asked me to watch the Driveway: a white car pulled into the Driveway at 5:02 AM.',
    );
  });
});
