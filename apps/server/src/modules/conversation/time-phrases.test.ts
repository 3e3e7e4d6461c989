/**
 * The time rules (docs/assistant.md, "Time as people mean it") at the day's edges, across the DST changes in
 * Europe/Berlin and west of UTC. Every case passes its own `now`; times are written with the zone's offset
 * at that moment, so a DST case shows the change in the offsets.
 */
import { describe, expect, it } from 'vitest';
import { fold, type Language } from '../language/language.module.js';
import { parseTimeWindow, type TimeContext, type WindowTiming } from './time-phrases.js';
import { windowPhrase } from './window-label.js';

interface Case {
  /** The question's time phrase, as typed. */
  q: string;
  from: string;
  to: string;
  /** How the answer says the window back. */
  said?: string;
  timing?: WindowTiming;
  language?: Language;
}

const BERLIN = 'Europe/Berlin';
const LOS_ANGELES = 'America/Los_Angeles';

function read(q: string, now: string, timezone: string, away?: TimeContext['away']) {
  const w = parseTimeWindow(fold(q), { now: new Date(now), timezone, away });
  if (!w) throw new Error(`no window read from "${q}"`);
  return w;
}

function check(now: string, timezone: string, cases: Case[]) {
  it.each(cases)('$q', ({ q, from, to, said, timing, language }) => {
    const w = read(q, now, timezone);
    expect({ from: w.from.toISOString(), to: w.to.toISOString(), timing: w.timing }).toEqual({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      timing,
    });
    if (said) expect(windowPhrase(w.label, language ?? 'en')).toBe(said);
  });
}

const hours = (w: { from: Date; to: Date }) => (w.to.getTime() - w.from.getTime()) / 3_600_000;

// Wednesday 10 June 2026 in Berlin (UTC+2).
describe('asked at 00:30', () => {
  const now = '2026-06-10T00:30+02:00';
  check(now, BERLIN, [
    // Neither 3 AM nor 3 PM has come today: yesterday's 3 PM is the latest that has.
    {
      q: 'who was at the door at 3?',
      from: '2026-06-09T14:00+02:00',
      to: '2026-06-09T16:00+02:00',
      said: 'yesterday around 3 PM',
    },
    {
      q: 'war um 3 jemand da?',
      from: '2026-06-09T14:00+02:00',
      to: '2026-06-09T16:00+02:00',
      said: 'gestern gegen 15 Uhr',
      language: 'de',
    },
    { q: 'at 12', from: '2026-06-09T23:00+02:00', to: now, said: 'today around midnight', timing: 'so_far' },
    {
      q: 'anything this morning?',
      from: '2026-06-10T00:00+02:00',
      to: now,
      said: 'this morning',
      timing: 'so_far',
    },
    { q: 'tonight', from: '2026-06-09T18:00+02:00', to: now, said: 'tonight', timing: 'so_far' },
    // The night in progress is the one meant, whichever word is used.
    { q: 'last night', from: '2026-06-09T18:00+02:00', to: now, said: 'tonight', timing: 'so_far' },
    { q: 'yesterday', from: '2026-06-09T00:00+02:00', to: '2026-06-10T00:00+02:00', said: 'yesterday' },
    {
      q: 'an hour ago',
      from: '2026-06-09T23:00+02:00',
      to: '2026-06-10T00:00+02:00',
      said: 'about an hour ago',
    },
    { q: 'this afternoon', from: '2026-06-10T12:00+02:00', to: '2026-06-10T12:00+02:00', timing: 'ahead' },
  ]);
});

describe('asked at 03:00', () => {
  const now = '2026-06-10T03:00+02:00';
  check(now, BERLIN, [
    { q: 'at 3', from: '2026-06-10T02:00+02:00', to: now, said: 'today around 3 AM', timing: 'so_far' },
    {
      q: "at 3 o'clock",
      from: '2026-06-10T02:00+02:00',
      to: now,
      said: 'today around 3 AM',
      timing: 'so_far',
    },
    {
      q: 'around 7',
      from: '2026-06-09T18:00+02:00',
      to: '2026-06-09T20:00+02:00',
      said: 'yesterday around 7 PM',
    },
    { q: 'this morning', from: '2026-06-10T00:00+02:00', to: now, timing: 'so_far' },
    { q: 'heute Morgen', from: '2026-06-10T00:00+02:00', to: now, timing: 'so_far' },
    { q: 'tonight', from: '2026-06-09T18:00+02:00', to: now, timing: 'so_far' },
    {
      q: 'heute Nacht',
      from: '2026-06-09T18:00+02:00',
      to: now,
      said: 'heute Nacht',
      timing: 'so_far',
      language: 'de',
    },
    { q: 'last night', from: '2026-06-09T18:00+02:00', to: now, timing: 'so_far' },
    { q: 'yesterday', from: '2026-06-09T00:00+02:00', to: '2026-06-10T00:00+02:00' },
    { q: 'an hour ago', from: '2026-06-10T01:30+02:00', to: '2026-06-10T02:30+02:00' },
  ]);
});

describe('asked at 05:59', () => {
  const now = '2026-06-10T05:59+02:00';
  check(now, BERLIN, [
    { q: 'at 3', from: '2026-06-10T02:00+02:00', to: '2026-06-10T04:00+02:00', said: 'today around 3 AM' },
    // An explicit time later today has not come: ahead, never "nothing".
    { q: 'at 3 PM', from: '2026-06-10T14:00+02:00', to: '2026-06-10T14:00+02:00', timing: 'ahead' },
    { q: 'um 15 Uhr', from: '2026-06-10T14:00+02:00', to: '2026-06-10T14:00+02:00', timing: 'ahead' },
    { q: 'this morning', from: '2026-06-10T00:00+02:00', to: now, timing: 'so_far' },
    { q: 'tonight', from: '2026-06-09T18:00+02:00', to: now, timing: 'so_far' },
    { q: 'last night', from: '2026-06-09T18:00+02:00', to: now, timing: 'so_far' },
    { q: 'yesterday', from: '2026-06-09T00:00+02:00', to: '2026-06-10T00:00+02:00' },
    { q: 'an hour ago', from: '2026-06-10T04:29+02:00', to: '2026-06-10T05:29+02:00' },
  ]);
});

describe('asked at 23:59', () => {
  const now = '2026-06-10T23:59+02:00';
  check(now, BERLIN, [
    { q: 'at 3', from: '2026-06-10T14:00+02:00', to: '2026-06-10T16:00+02:00', said: 'today around 3 PM' },
    { q: 'at 11', from: '2026-06-10T22:00+02:00', to: now, said: 'today around 11 PM', timing: 'so_far' },
    { q: 'this morning', from: '2026-06-10T00:00+02:00', to: '2026-06-10T12:00+02:00' },
    { q: 'this evening', from: '2026-06-10T18:00+02:00', to: now, timing: 'so_far' },
    { q: 'tonight', from: '2026-06-10T18:00+02:00', to: now, said: 'tonight', timing: 'so_far' },
    // Not the night that began at 18:00 today: the one before it.
    { q: 'last night', from: '2026-06-09T18:00+02:00', to: '2026-06-10T06:00+02:00', said: 'last night' },
    {
      q: 'letzte Nacht',
      from: '2026-06-09T18:00+02:00',
      to: '2026-06-10T06:00+02:00',
      said: 'letzte Nacht',
      language: 'de',
    },
    { q: 'yesterday', from: '2026-06-09T00:00+02:00', to: '2026-06-10T00:00+02:00' },
    { q: 'an hour ago', from: '2026-06-10T22:29+02:00', to: '2026-06-10T23:29+02:00' },
    {
      q: 'vor einer Stunde',
      from: '2026-06-10T22:29+02:00',
      to: '2026-06-10T23:29+02:00',
      said: 'vor etwa einer Stunde',
      language: 'de',
    },
  ]);
});

describe('during the day', () => {
  check('2026-06-10T10:12+02:00', BERLIN, [
    { q: 'at 3', from: '2026-06-10T02:00+02:00', to: '2026-06-10T04:00+02:00' },
    { q: 'at 3 PM', from: '2026-06-10T14:00+02:00', to: '2026-06-10T14:00+02:00', timing: 'ahead' },
    { q: 'this evening', from: '2026-06-10T18:00+02:00', to: '2026-06-10T18:00+02:00', timing: 'ahead' },
    { q: 'tonight', from: '2026-06-10T18:00+02:00', to: '2026-06-10T18:00+02:00', timing: 'ahead' },
    // German "heute Nacht" in the morning is the night just over.
    {
      q: 'heute Nacht',
      from: '2026-06-09T18:00+02:00',
      to: '2026-06-10T06:00+02:00',
      said: 'letzte Nacht',
      language: 'de',
    },
    { q: 'since 6', from: '2026-06-10T06:00+02:00', to: '2026-06-10T10:12+02:00', timing: 'so_far' },
    { q: 'earlier today', from: '2026-06-10T00:00+02:00', to: '2026-06-10T10:12+02:00', said: 'today' },
    {
      q: 'half an hour ago',
      from: '2026-06-10T09:12+02:00',
      to: '2026-06-10T10:12+02:00',
      said: 'in the last hour',
    },
    {
      q: 'a few minutes ago',
      from: '2026-06-10T09:57+02:00',
      to: '2026-06-10T10:12+02:00',
      said: 'in the last 15 minutes',
    },
    { q: 'vor 10 Minuten', from: '2026-06-10T09:52+02:00', to: '2026-06-10T10:12+02:00' },
    {
      q: 'vor 2 Stunden',
      from: '2026-06-10T07:42+02:00',
      to: '2026-06-10T08:42+02:00',
      said: 'vor etwa 2 Stunden',
      language: 'de',
    },
    { q: '3 days ago', from: '2026-06-07T00:00+02:00', to: '2026-06-08T00:00+02:00', said: 'on Sunday' },
    // Weekdays: the latest one, today's if it is today; never one still ahead.
    { q: 'on Monday', from: '2026-06-08T00:00+02:00', to: '2026-06-09T00:00+02:00', said: 'on Monday' },
    { q: 'on Wednesday', from: '2026-06-10T00:00+02:00', to: '2026-06-10T10:12+02:00', said: 'today' },
    {
      q: 'Wednesday evening',
      from: '2026-06-03T18:00+02:00',
      to: '2026-06-04T00:00+02:00',
      said: 'on Wednesday evening',
    },
    { q: 'last Wednesday', from: '2026-06-03T00:00+02:00', to: '2026-06-04T00:00+02:00' },
    {
      q: 'am Montagabend',
      from: '2026-06-08T18:00+02:00',
      to: '2026-06-09T00:00+02:00',
      said: 'am Montagabend',
      language: 'de',
    },
  ]);
  check('2026-06-10T16:00+02:00', BERLIN, [
    {
      q: 'War heute Nacht jemand da?',
      from: '2026-06-09T18:00+02:00',
      to: '2026-06-10T06:00+02:00',
      said: 'letzte Nacht',
      language: 'de',
    },
    { q: 'at 3', from: '2026-06-10T14:00+02:00', to: '2026-06-10T16:00+02:00' },
    { q: 'this afternoon', from: '2026-06-10T12:00+02:00', to: '2026-06-10T16:00+02:00', timing: 'so_far' },
    // "before 5" at 4 PM is 5 PM; at 3 AM it would be 5 AM (the nearer one).
    {
      q: 'before 5',
      from: '2026-06-10T00:00+02:00',
      to: '2026-06-10T16:00+02:00',
      said: 'today before 5 PM',
      timing: 'so_far',
    },
    {
      q: 'between 2 and 4',
      from: '2026-06-10T14:00+02:00',
      to: '2026-06-10T16:00+02:00',
      said: 'today between 2 PM and 4 PM',
    },
    { q: 'between 10 and 2', from: '2026-06-10T10:00+02:00', to: '2026-06-10T14:00+02:00' },
  ]);
});

describe('while I was out', () => {
  const now = '2026-06-10T18:00+02:00';
  it.each([
    'What did I miss while I was out?',
    'während ich weg war',
    "while I'm away",
    'als wir im Urlaub waren',
    'wut did i miss',
    'was hab ich verpasst',
  ])('%s looks at the last 8 hours, said as a guess, with no time away or last use known', (q) => {
    const w = read(q, now, BERLIN);
    expect(w.timing).toBeUndefined();
    expect([w.from, w.to]).toEqual([new Date('2026-06-10T10:00+02:00'), new Date(now)]);
    expect(w.label).toEqual({ type: 'away', guess: { since: 'hours', hours: 8 } });
  });

  it('takes the last use of the app as the start when it was a while ago, and not days back', () => {
    const at = (lastUsedAt: string) =>
      parseTimeWindow(fold('what happened while I was out?'), {
        now: new Date(now),
        timezone: BERLIN,
        lastUsedAt: new Date(lastUsedAt),
      })!;
    const w = at('2026-06-10T07:30+02:00');
    expect([w.from, w.to]).toEqual([new Date('2026-06-10T07:30+02:00'), new Date(now)]);
    expect(w.label).toEqual({ type: 'away', guess: { since: 'last_use' } });
    // Ten minutes ago is the same sitting; four days ago is not an absence: the last 8 hours instead.
    expect(at('2026-06-10T17:50+02:00').label).toEqual({ type: 'away', guess: { since: 'hours', hours: 8 } });
    expect(at('2026-06-06T17:00+02:00').label).toEqual({ type: 'away', guess: { since: 'hours', hours: 8 } });
  });

  it('uses the last known time away', () => {
    const away = { from: new Date('2026-06-10T14:00+02:00'), to: new Date('2026-06-10T17:10+02:00') };
    const w = read('anyone while I was out?', now, BERLIN, away);
    expect(w).toEqual({ from: away.from, to: away.to, label: { type: 'away' } });
  });

  it('takes a time said with it instead', () => {
    const w = read('while I was out between 2 and 5 pm', now, BERLIN);
    expect([w.from, w.to]).toEqual([new Date('2026-06-10T14:00+02:00'), new Date('2026-06-10T17:00+02:00')]);
    expect(w.timing).toBeUndefined();
  });
});

describe('across the DST changes in Berlin', () => {
  // Sunday 29 March 2026: at 02:00 CET the clocks jump to 03:00 CEST.
  describe('spring forward', () => {
    check('2026-03-29T10:00+02:00', BERLIN, [
      // 2 o'clock never came on the wall; it is the moment of the jump (01:00 UTC), an hour either side.
      { q: 'at 2', from: '2026-03-29T01:00+01:00', to: '2026-03-29T04:00+02:00', said: 'today around 2 AM' },
      // An 11-hour night.
      { q: 'last night', from: '2026-03-28T18:00+01:00', to: '2026-03-29T06:00+02:00' },
      { q: 'this morning', from: '2026-03-29T00:00+01:00', to: '2026-03-29T10:00+02:00', timing: 'so_far' },
    ]);
    // "An hour ago" at 03:30 CEST is 60 minutes back (01:30 CET), though the wall shows two hours between.
    check('2026-03-29T03:30+02:00', BERLIN, [
      { q: 'an hour ago', from: '2026-03-29T01:00+01:00', to: '2026-03-29T03:00+02:00' },
    ]);
    check('2026-03-30T10:00+02:00', BERLIN, [
      { q: 'yesterday', from: '2026-03-29T00:00+01:00', to: '2026-03-30T00:00+02:00' },
    ]);

    it('the night and the day of the change are 11 and 23 hours long', () => {
      expect(hours(read('last night', '2026-03-29T10:00+02:00', BERLIN))).toBe(11);
      expect(hours(read('yesterday', '2026-03-30T10:00+02:00', BERLIN))).toBe(23);
    });
  });

  // Sunday 25 October 2026: at 03:00 CEST the clocks go back to 02:00 CET; 2 o'clock comes twice.
  describe('fall back', () => {
    check('2026-10-25T10:00+01:00', BERLIN, [
      // The later 2 o'clock (02:00 CET), an hour either side: both 2 o'clocks are inside.
      { q: 'at 2', from: '2026-10-25T02:00+02:00', to: '2026-10-25T03:00+01:00' },
      { q: 'last night', from: '2026-10-24T18:00+02:00', to: '2026-10-25T06:00+01:00' },
    ]);
    // At 02:30 CET, an hour ago was 02:30 CEST.
    check('2026-10-25T02:30+01:00', BERLIN, [
      { q: 'an hour ago', from: '2026-10-25T02:00+02:00', to: '2026-10-25T03:00+02:00' },
      { q: 'last night', from: '2026-10-24T18:00+02:00', to: '2026-10-25T02:30+01:00', timing: 'so_far' },
    ]);

    it('the night and the day of the change are 13 and 25 hours long', () => {
      expect(hours(read('last night', '2026-10-25T10:00+01:00', BERLIN))).toBe(13);
      expect(hours(read('yesterday', '2026-10-26T10:00+01:00', BERLIN))).toBe(25);
    });
  });
});

describe('west of UTC (Los Angeles)', () => {
  // 23:59 on Wednesday in Los Angeles is already Thursday in UTC.
  check('2026-06-10T23:59-07:00', LOS_ANGELES, [
    { q: 'today', from: '2026-06-10T00:00-07:00', to: '2026-06-10T23:59-07:00', said: 'today' },
    { q: 'yesterday', from: '2026-06-09T00:00-07:00', to: '2026-06-10T00:00-07:00' },
    { q: 'at 3', from: '2026-06-10T14:00-07:00', to: '2026-06-10T16:00-07:00', said: 'today around 3 PM' },
    { q: 'last night', from: '2026-06-09T18:00-07:00', to: '2026-06-10T06:00-07:00' },
    { q: 'tonight', from: '2026-06-10T18:00-07:00', to: '2026-06-10T23:59-07:00', timing: 'so_far' },
  ]);
  check('2026-06-10T00:30-07:00', LOS_ANGELES, [
    {
      q: 'at 3',
      from: '2026-06-09T14:00-07:00',
      to: '2026-06-09T16:00-07:00',
      said: 'yesterday around 3 PM',
    },
    { q: 'this morning', from: '2026-06-10T00:00-07:00', to: '2026-06-10T00:30-07:00', timing: 'so_far' },
    { q: 'an hour ago', from: '2026-06-09T23:00-07:00', to: '2026-06-10T00:00-07:00' },
  ]);
  // Sunday 8 March 2026: 02:00 PST jumps to 03:00 PDT.
  check('2026-03-08T10:00-07:00', LOS_ANGELES, [
    { q: 'last night', from: '2026-03-07T18:00-08:00', to: '2026-03-08T06:00-07:00' },
  ]);
});

describe('more ways to say it', () => {
  check('2026-06-10T10:12+02:00', BERLIN, [
    {
      q: 'gestern Nacht',
      from: '2026-06-09T18:00+02:00',
      to: '2026-06-10T06:00+02:00',
      said: 'letzte Nacht',
      language: 'de',
    },
    { q: 'heute früh', from: '2026-06-10T00:00+02:00', to: '2026-06-10T10:12+02:00', timing: 'so_far' },
    {
      q: '2 weeks ago',
      from: '2026-05-25T00:00+02:00',
      to: '2026-06-01T00:00+02:00',
      said: 'about 2 weeks ago',
    },
    { q: 'a week ago', from: '2026-06-01T00:00+02:00', to: '2026-06-08T00:00+02:00', said: 'last week' },
    {
      q: 'um 3 Uhr',
      from: '2026-06-10T02:00+02:00',
      to: '2026-06-10T04:00+02:00',
      said: 'heute gegen 3 Uhr',
      language: 'de',
    },
    {
      q: 'yesterday at 3',
      from: '2026-06-09T14:00+02:00',
      to: '2026-06-09T16:00+02:00',
      said: 'yesterday around 3 PM',
    },
    {
      q: 'since 6pm',
      from: '2026-06-09T18:00+02:00',
      to: '2026-06-10T10:12+02:00',
      said: 'since 6 PM yesterday',
    },
  ]);
});
