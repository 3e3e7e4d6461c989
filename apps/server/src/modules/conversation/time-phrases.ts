/**
 * Time phrases of a question, English and German, turned into a window of the user's own day:
 * "today", "last night" (18:00 the day before until 06:00), "this morning", "yesterday after 5",
 * "gestern nach 17 Uhr", "in the last 3 hours", "an hour ago", "in den letzten 30 Minuten", "on Monday",
 * "last week", "am 3. Juni", "while I was out". Works on folded text (see fold.ts). Without any phrase the
 * caller uses the last 24 hours.
 *
 * Times are read as people mean them (docs/assistant.md, "Time as people mean it"): a bare hour ("at 3")
 * is the latest such hour that has passed; a window that has not begun yet is marked `ahead` (the answer
 * says so instead of "nothing"), one that has begun but not ended is cut at now and marked `so_far`.
 */
import {
  instantOnDay,
  localDayNumber,
  localHour,
  weekdayOfDay,
  zoneOrUtc,
  numberFromWord,
} from '../language/language.module.js';

export type DayRef =
  | { type: 'today' }
  | { type: 'yesterday' }
  | { type: 'day_before_yesterday' }
  | { type: 'weekday'; weekday: number }
  | { type: 'date'; date: string };

export type DayPart = 'morning' | 'afternoon' | 'evening';

export interface ClockTime {
  hour: number;
  minute: number;
}

/** How the window was asked for, so the answer can say it back ("yesterday after 5 PM"). */
export type WindowLabel =
  | { type: 'recent'; amount: number; unit: 'minute' | 'hour' | 'day'; implicit?: true }
  | {
      type: 'day';
      day: DayRef;
      part?: DayPart;
      after?: ClockTime;
      before?: ClockTime;
      around?: ClockTime;
      /** From this time of `day` until now ("since 6 PM" asked the next morning). */
      since?: ClockTime;
      /** From the start of `day` (or its part) until now: "since yesterday", "since the evening". */
      untilNow?: true;
    }
  /**
   * "tonight": the night in progress (or still ahead); "last night": the one that ended this morning. With
   * hours when the question names some ("between 9 and 10 last night").
   */
  | { type: 'night'; which: 'last' | 'tonight'; after?: ClockTime; before?: ClockTime; around?: ClockTime }
  /** A time still to come ("tomorrow", "in the next hour", "morgen"): nothing can have happened in it. */
  | { type: 'future'; what: 'tomorrow' | 'later' }
  | { type: 'week'; which: 'this' | 'last' }
  | { type: 'weekend' }
  /** "an hour ago", "vor 2 Stunden", "three weeks ago": a window around then. */
  | { type: 'ago'; amount: number; unit: 'hour' | 'week' }
  /**
   * "while I was out" / "während ich weg war". `guess`: no time away is known, so the window is a guess the
   * answer says and offers to narrow: since the app was last used, or the last few hours.
   */
  | { type: 'away'; guess?: { since: 'last_use' } | { since: 'hours'; hours: number } };

/**
 * How the window stands against now. `so_far`: it has begun but ends later ("this afternoon" at 2 PM), so
 * it was cut at now and the answer says "so far". `ahead`: it has not begun ("this evening" at 10 AM,
 * "at 3 PM" at 10 AM): nothing can have happened in it yet, and the answer says so. `ask`: only the user
 * knows it ("while I was out" with no away period known): the answer asks when.
 */
export type WindowTiming = 'so_far' | 'ahead' | 'ask';

export interface TimeWindow {
  from: Date;
  to: Date;
  label: WindowLabel;
  timing?: WindowTiming;
}

export interface TimeContext {
  now: Date;
  timezone: string | null | undefined;
  /**
   * The user's last known time away (a private-mode or away period), for "while I was out". Unknown today:
   * then the answer asks when.
   */
  away?: { from: Date; to: Date } | null | undefined;
  /** When the user last used the app before this message (their previous chat message), if known. */
  lastUsedAt?: Date | null | undefined;
}

export const DEFAULT_WINDOW_HOURS = 24;

/** The last 24 hours: the window of a question that names no time ("while I was out", "anyone?"). */
export function defaultWindow(ctx: TimeContext): TimeWindow {
  return {
    from: new Date(ctx.now.getTime() - DEFAULT_WINDOW_HOURS * 3_600_000),
    to: ctx.now,
    label: { type: 'recent', amount: DEFAULT_WINDOW_HOURS, unit: 'hour', implicit: true },
  };
}

/**
 * Parts of a day. The morning starts at midnight: "at 3 this morning" is English, and a 5 AM visitor must
 * not be left out of "anything this morning?" (the night from 18:00 overlaps it, which is fine).
 */
const PARTS: Record<DayPart, [number, number]> = {
  morning: [0, 12],
  afternoon: [12, 18],
  evening: [18, 24],
};

const WEEKDAYS: [RegExp, number][] = [
  [/\b(sunday|sonntag|sonnabend)/, 0],
  [/\b(monday|montag)/, 1],
  [/\b(tuesday|dienstag)/, 2],
  [/\b(wednesday|mittwoch)/, 3],
  [/\b(thursday|donnerstag)/, 4],
  [/\b(friday|freitag)/, 5],
  [/\b(saturday|samstag)/, 6],
];

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  januar: 1,
  janner: 1,
  february: 2,
  feb: 2,
  februar: 2,
  march: 3,
  mar: 3,
  marz: 3,
  april: 4,
  apr: 4,
  may: 5,
  mai: 5,
  june: 6,
  jun: 6,
  juni: 6,
  july: 7,
  jul: 7,
  juli: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  oktober: 10,
  okt: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
  dezember: 12,
  dez: 12,
};
const MONTH_WORDS = Object.keys(MONTHS).join('|');

const NUMBER_WORD =
  '\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|' +
  'ein|eine|einer|zwei|drei|vier|funf|sechs|sieben|acht|neun|zehn|elf|zwolf|zwanzig|dreissig';

/** Words for numbers in folded text ("funf", "zwolf") back to numbers. */
function amountOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  const w = word.replace('funf', 'fünf').replace('zwolf', 'zwölf');
  return numberFromWord(w);
}

function unitOf(word: string): 'minute' | 'hour' | 'day' | 'week' {
  if (/^(min|minute|minuten)/.test(word)) return 'minute';
  if (/^(h|hr|hour|std|stunde)/.test(word)) return 'hour';
  if (/^(week|woche)/.test(word)) return 'week';
  return 'day';
}

const UNIT_WORDS = 'minutes?|mins?|hours?|hrs?|h|days?|weeks?|minuten?|stunden?|std|tagen?|tage|wochen?';
const MINUTES_PER = { minute: 1, hour: 60, day: 1440, week: 10_080 } as const;

/** "in the last 3 hours", "past hour", "last 30 min", "in den letzten 2 Stunden", "seit 20 Minuten". */
function recent(t: string, ctx: TimeContext): TimeWindow | undefined {
  const patterns = [
    new RegExp(
      `\\b(?:last|past|previous)\\s+(?:(couple of|few|${NUMBER_WORD})\\s+)?(half an? hour|${UNIT_WORDS})\\b`,
    ),
    new RegExp(
      `\\b(?:letzten|letzte|vergangenen|vergangene|letzter|vergangener)\\s+(?:(${NUMBER_WORD}|paar)\\s+)?(halben? stunde|${UNIT_WORDS})\\b`,
    ),
    new RegExp(`\\bseit\\s+(${NUMBER_WORD}|einer|einem)\\s+(${UNIT_WORDS})\\b`),
  ];
  for (const re of patterns) {
    const m = re.exec(t);
    if (!m) continue;
    const unitWord = m[2]!;
    // "last week" is a calendar week, unless it comes as "in the last week" / "in der letzten Woche".
    if (
      /^(week|woche)/.test(unitWord) &&
      m[1] === undefined &&
      !/\b(in|within|over|during)\s+(the|der)\s+$/.test(t.slice(0, m.index))
    )
      continue;
    let minutes: number;
    let label: WindowLabel;
    if (/^half|^halbe/.test(unitWord)) {
      minutes = 30;
      label = { type: 'recent', amount: 30, unit: 'minute' };
    } else {
      const amount = m[1] === 'couple of' ? 2 : m[1] === 'few' || m[1] === 'paar' ? 3 : (amountOf(m[1]) ?? 1);
      if (amount <= 0) continue;
      const unit = unitOf(unitWord);
      minutes = amount * MINUTES_PER[unit];
      label =
        unit === 'week'
          ? { type: 'recent', amount: amount * 7, unit: 'day' }
          : { type: 'recent', amount, unit };
    }
    return { from: new Date(ctx.now.getTime() - minutes * 60_000), to: ctx.now, label };
  }
  return undefined;
}

/** The last `minutes` up to now, said in the largest whole unit ("in the last hour", "in the last 20 minutes"). */
function lastMinutes(minutes: number, ctx: TimeContext): TimeWindow {
  const label: WindowLabel =
    minutes % 60 === 0
      ? { type: 'recent', amount: minutes / 60, unit: 'hour' }
      : { type: 'recent', amount: minutes, unit: 'minute' };
  return { from: new Date(ctx.now.getTime() - minutes * 60_000), to: ctx.now, label };
}

/**
 * "an hour ago", "half an hour ago", "a few minutes ago", "3 days ago", "vor einer Stunde", "vor ein paar
 * Minuten", "just now". A moment that recent is searched up to now (what came after it matters too); an
 * hour or more back, half an hour either side of it; days back, that whole day; weeks back, that week.
 */
function ago(t: string, ctx: TimeContext, today: number): TimeWindow | undefined {
  if (/\b(just now|right now|gerade eben|eben gerade|grad eben)\b/.test(t)) return lastMinutes(15, ctx);
  // "vorhin", "a while ago": earlier on, not long ago; the last three hours.
  if (/\b(vorhin|a while ago|a little while ago|not long ago|eben vorhin|kurz vorher)\b/.test(t))
    return lastMinutes(180, ctx);
  const vague = 'a few|a couple of|couple of|few|ein paar|paar|wenigen|einigen';
  const m =
    new RegExp(`\\b(half an?|${vague}|${NUMBER_WORD})\\s+(${UNIT_WORDS})\\s+ago\\b`).exec(t) ??
    new RegExp(
      `\\bvor\\s+(einer halben|einem halben|${vague}|${NUMBER_WORD}|einer|einem)\\s+(${UNIT_WORDS})\\b`,
    ).exec(t);
  if (!m) return undefined;
  const [, amountWord = '', unitWord = ''] = m;
  const unit = unitOf(unitWord);
  if (/^(half|einer halben|einem halben)/.test(amountWord)) return lastMinutes(60, ctx);
  if (new RegExp(`^(${vague})$`).test(amountWord)) {
    // "a few minutes ago" is the last quarter of an hour; "a couple of hours ago" the last three hours.
    if (unit === 'minute') return lastMinutes(15, ctx);
    const amount = /couple/.test(amountWord) ? 3 : 4;
    const label: WindowLabel =
      unit === 'hour'
        ? { type: 'recent', amount, unit: 'hour' }
        : { type: 'recent', amount: unit === 'week' ? amount * 7 : amount, unit: 'day' };
    const minutes = amount * MINUTES_PER[unit];
    return { from: new Date(ctx.now.getTime() - minutes * 60_000), to: ctx.now, label };
  }
  const amount = amountOf(amountWord) ?? 1;
  if (amount <= 0) return undefined;
  const zone = zoneOrUtc(ctx.timezone);
  if (unit === 'day') {
    const day = today - amount;
    return {
      from: instantOnDay(day, 0, 0, zone),
      to: instantOnDay(day + 1, 0, 0, zone),
      label: { type: 'day', day: dayRefOf(day, today) },
    };
  }
  if (unit === 'week') {
    const monday = mondayOf(today - 7 * amount);
    return {
      from: instantOnDay(monday, 0, 0, zone),
      to: instantOnDay(monday + 7, 0, 0, zone),
      label: amount === 1 ? { type: 'week', which: 'last' } : { type: 'ago', amount, unit: 'week' },
    };
  }
  const minutes = amount * MINUTES_PER[unit];
  if (minutes < 60) return lastMinutes(Math.max(2 * minutes, 15), ctx);
  // Hours back are counted on the clock, not the wall: "an hour ago" across a DST change is still 60 minutes.
  const centre = ctx.now.getTime() - minutes * 60_000;
  return {
    from: new Date(centre - 30 * 60_000),
    to: new Date(centre + 30 * 60_000),
    label: { type: 'ago', amount: minutes / 60, unit: 'hour' },
  };
}

/**
 * A time still to come: "tomorrow", "in the next hour", "later today", "morgen", "übermorgen", "in der
 * nächsten Stunde". Not searched: the answer says it has not happened yet.
 */
function future(t: string, ctx: TimeContext): TimeWindow | undefined {
  const tomorrow =
    /\b(tomorrow|day after tomorrow|tomorrow (?:morning|night|evening)|ubermorgen)\b/.test(t) ||
    /(?<!\b(?:heute|gestern|vorgestern|am|guten|tag|jeden)\s)\bmorgen\b(?!s)/.test(t);
  const later =
    /\b(?:in|over|during|within) the (?:next|coming) (?:few |couple of |\d+ |\w+ )?(?:minutes?|hours?|days?)\b/.test(
      t,
    ) ||
    /\bnext (?:few |couple of |\d+ )?(?:minutes?|hours?)\b/.test(t) ||
    /\b(?:later (?:today|tonight|on)|in (?:an?|\d+|a few|a couple of) (?:minutes?|hours?)(?! ago))\b/.test(
      t,
    ) ||
    /\b(?:in der nachsten|in den nachsten|in den kommenden|in der kommenden) (?:\w+ )?(?:minuten?|stunden?|tagen?)\b/.test(
      t,
    ) ||
    /\b(?:heute spater|spater heute|gleich noch|nachher)\b/.test(t);
  if (!tomorrow && !later) return undefined;
  return {
    from: ctx.now,
    to: ctx.now,
    label: { type: 'future', what: tomorrow ? 'tomorrow' : 'later' },
    timing: 'ahead',
  };
}

const mondayOf = (day: number) => day - ((weekdayOfDay(day) + 6) % 7);

/** How a past day is spoken of: "yesterday", "the day before yesterday", "on Monday" this past week, a date. */
function dayRefOf(day: number, today: number): DayRef {
  if (day === today) return { type: 'today' };
  if (day === today - 1) return { type: 'yesterday' };
  if (day === today - 2) return { type: 'day_before_yesterday' };
  if (today - day < 7) return { type: 'weekday', weekday: weekdayOfDay(day) };
  return { type: 'date', date: new Date(day * 86_400_000).toISOString().slice(0, 10) };
}

/**
 * A window as asked, against now: wholly ahead (empty, `ahead`), begun but not ended (cut at now,
 * `so_far` unless `open`: "today" and "this week" mean "until now" anyway), or wholly past.
 */
function against(from: Date, end: Date, label: WindowLabel, now: Date, open = false): TimeWindow {
  if (from.getTime() > now.getTime()) return { from, to: from, label, timing: 'ahead' };
  if (end.getTime() > now.getTime()) return { from, to: now, label, ...(open ? {} : { timing: 'so_far' }) };
  return { from, to: end, label };
}

interface DayMatch {
  day: DayRef;
  dayNumber: number;
}

/** The most recent date with that month and day, on or before today. */
function pastDate(today: number, month: number, day: number, year?: number): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const todayDate = new Date(today * 86_400_000);
  let y = year ?? todayDate.getUTCFullYear();
  if (y < 100) y += 2000;
  let ms = Date.UTC(y, month - 1, day);
  if (new Date(ms).getUTCDate() !== day) return undefined;
  if (year === undefined && ms > today * 86_400_000) ms = Date.UTC(y - 1, month - 1, day);
  return Math.floor(ms / 86_400_000);
}

function dayOf(t: string, today: number): DayMatch | undefined {
  if (/\b(day before yesterday|vorgestern)\b/.test(t))
    return { day: { type: 'day_before_yesterday' }, dayNumber: today - 2 };
  if (/\b(yesterday|gestern)/.test(t)) return { day: { type: 'yesterday' }, dayNumber: today - 1 };
  if (/\b(today|heute)/.test(t)) return { day: { type: 'today' }, dayNumber: today };

  const iso = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(t);
  const numeric = /(?<![\d:])(\d{1,2})\.(\d{1,2})\.(\d{2,4})?(?![\d:])/.exec(t);
  const enDate = new RegExp(`\\b(${MONTH_WORDS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`).exec(t);
  const dayMonth = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|\\.)?\\s+(?:of\\s+)?(${MONTH_WORDS})\\b`).exec(t);
  let dayNumber: number | undefined;
  if (iso) dayNumber = pastDate(today, Number(iso[2]), Number(iso[3]), Number(iso[1]));
  else if (dayMonth) dayNumber = pastDate(today, MONTHS[dayMonth[2]!]!, Number(dayMonth[1]));
  else if (enDate) dayNumber = pastDate(today, MONTHS[enDate[1]!]!, Number(enDate[2]));
  else if (numeric)
    dayNumber = pastDate(
      today,
      Number(numeric[2]),
      Number(numeric[1]),
      numeric[3] ? Number(numeric[3]) : undefined,
    );
  if (dayNumber !== undefined && dayNumber <= today) {
    const date = new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
    return { day: { type: 'date', date }, dayNumber };
  }

  for (const [re, weekday] of WEEKDAYS) {
    const m = re.exec(t);
    if (!m) continue;
    const before = t.slice(0, m.index);
    // "last Monday" is before today; a bare "Monday" may be today.
    const strictlyPast = /\b(last|previous|letzten|letzter|vergangenen)\s+(am\s+)?$/.test(before);
    let back = (((weekdayOfDay(today) - weekday) % 7) + 7) % 7;
    if (strictlyPast && back === 0) back = 7;
    return { day: { type: 'weekday', weekday }, dayNumber: today - back };
  }
  return undefined;
}

function partOf(t: string): DayPart | undefined {
  if (/(morning|morgen\b|morgens|fruh|vormittag)/.test(t)) {
    // German "morgen" alone is "tomorrow"; it is the morning only after a day ("heute Morgen", "Montagmorgen").
    if (/\bmorning|fruh\b|vormittag|morgens/.test(t)) return 'morning';
    if (/(heute|gestern|vorgestern|tag|am)\s?morgen\b/.test(t)) return 'morning';
  }
  if (/(afternoon|nachmittag|nachmittags)/.test(t)) return 'afternoon';
  if (/(evening|abend|abends)/.test(t)) return 'evening';
  return undefined;
}

/** An hour as written; `bare` when nothing says which half of the day ("at 3", "um 3", "3 o'clock"). */
interface HourReading extends ClockTime {
  bare?: true;
}

/** An hour as the user wrote it: "5 pm" is 17:00, "17 Uhr" is 17:00, "5 am" is 05:00, "5" is bare. */
function hourOf(
  hourText: string,
  minuteText: string | undefined,
  suffix: string | undefined,
  part: DayPart | undefined,
): HourReading | undefined {
  let hour = Number(hourText);
  const minute = minuteText ? Number(minuteText) : 0;
  if (hour > 24 || minute > 59) return undefined;
  const s = (suffix ?? '').replace(/\./g, '').trim();
  if (s === 'pm' || /abends|nachmittags/.test(s)) {
    if (hour < 12) hour += 12;
  } else if (s === 'am' || /morgens|fruh|vormittags|nachts/.test(s)) {
    if (hour === 12) hour = 0;
  } else if (part) {
    if (hour < 12 && (part === 'afternoon' || part === 'evening')) hour += 12;
  } else if (s === 'uhr' ? hour >= 1 && hour <= 11 : hour >= 1 && hour <= 12) {
    // "um 3 Uhr" is as open as "at 3"; "12 Uhr" is noon, "15 Uhr" and "at 15" are what they say.
    return { hour, minute, bare: true };
  }
  return { hour, minute };
}

/** A bare hour on a day other than today: 1–6 read as afternoon or evening, 7–12 as they are. */
function usualHalf(c: HourReading): ClockTime {
  return { hour: c.bare && c.hour <= 6 ? c.hour + 12 : c.hour, minute: c.minute };
}

/** Both readings of a bare hour: 3 is 03:00 and 15:00, 12 is midnight and noon. */
const readings = (c: ClockTime): ClockTime[] => [
  { hour: c.hour % 12, minute: c.minute },
  { hour: (c.hour % 12) + 12, minute: c.minute },
];

/** The latest reading of a bare hour that has already come, on one of `days` (today, maybe yesterday). */
function latestPassed(
  c: ClockTime,
  days: number[],
  zone: string,
  now: Date,
): { day: number; time: ClockTime } | undefined {
  let best: { day: number; time: ClockTime; at: number } | undefined;
  for (const day of days)
    for (const time of readings(c)) {
      const at = instantOnDay(day, time.hour, time.minute, zone).getTime();
      if (at <= now.getTime() && (!best || at > best.at)) best = { day, time, at };
    }
  return best;
}

/** The reading of a bare hour nearest to now ("before 5" at 4 PM is 5 PM, at 3 AM it is 5 AM). */
function nearest(c: ClockTime, day: number, zone: string, now: Date): ClockTime {
  const distance = (r: ClockTime) =>
    Math.abs(instantOnDay(day, r.hour, r.minute, zone).getTime() - now.getTime());
  const [a, b] = readings(c) as [ClockTime, ClockTime];
  return distance(a) <= distance(b) ? a : b;
}

/** The end of "between 10 and 2": a bare end hour is the first reading after the start. */
function endAfter(start: ClockTime, end: HourReading): ClockTime {
  if (!end.bare) return end;
  let hour = end.hour % 12;
  while (hour * 60 + end.minute <= start.hour * 60 + start.minute && hour + 12 <= 24) hour += 12;
  return { hour, minute: end.minute };
}

const HOUR =
  '(\\d{1,2})(?::(\\d{2}))?\\s*(a\\.?m\\.?|p\\.?m\\.?|o ?clock|uhr(?:\\s+(?:abends|nachmittags|morgens|fruh|vormittags|nachts))?)?';

interface HourConstraint {
  /** "since" / "seit": the start stands alone, up to now ("since 6 PM" asked at 10 AM is yesterday's). */
  since?: true;
  after?: HourReading;
  before?: HourReading;
  around?: HourReading;
}

function hoursOf(t: string, part: DayPart | undefined): HourConstraint | undefined {
  const noonWord = (w: string) =>
    /(noon|mittag)/.test(w) ? { hour: 12, minute: 0 } : { hour: 24, minute: 0 };
  const between = new RegExp(
    `\\b(?:between|zwischen|from|von)\\s+${HOUR}\\s*(?:and|und|bis|to|till|until|-)\\s*${HOUR}`,
  ).exec(t);
  if (between) {
    const end = hourOf(between[4]!, between[5], between[6], part);
    // "between 2 and 4 pm": the first hour takes the second's half of the day.
    const start = hourOf(between[1]!, between[2], between[3] ?? between[6], part);
    if (start && end) return { after: start, before: end };
  }
  const after = new RegExp(`\\b(?:after|since|from|nach|seit|ab)\\s+${HOUR}`).exec(t);
  const afterWord = /\b(?:after|since|nach|seit|ab)\s+(noon|midday|mittag|midnight|mitternacht)\b/.exec(t);
  const aroundWord = /\b(?:around|about|at|um|gegen)\s+(noon|midday|mittag|midnight|mitternacht)\b/.exec(t);
  const before = new RegExp(`\\b(?:before|until|till|vor|bis)\\s+${HOUR}`).exec(t);
  const beforeWord = /\b(?:before|until|vor|bis)\s+(noon|midday|midnight|mittag|mitternacht)\b/.exec(t);
  const around = new RegExp(`\\b(?:around|about|at|um|gegen|circa|ca\\.?)\\s+${HOUR}`).exec(t);
  const out: HourConstraint = {};
  if (after) {
    const c = hourOf(after[1]!, after[2], after[3], part);
    if (c) out.after = c;
  } else if (afterWord) {
    // "after midnight" is the midnight that began today, not the one ahead.
    const c = noonWord(afterWord[1]!);
    out.after = c.hour === 24 ? { hour: 0, minute: 0 } : c;
  }
  if (out.after && /^(since|seit)\b/.test((after ?? afterWord)?.[0] ?? '')) out.since = true;
  if (before) {
    const c = hourOf(before[1]!, before[2], before[3], part);
    if (c) out.before = c;
  } else if (beforeWord) out.before = noonWord(beforeWord[1]!);
  if (!out.after && !out.before && aroundWord && !around) {
    // "around midnight" is the latest midnight that has come, an hour either side.
    const c = noonWord(aroundWord[1]!);
    out.around = c.hour === 24 ? { hour: 0, minute: 0 } : c;
  }
  if (!out.after && !out.before && !out.around && around) {
    // "um 5" must not read "vor 5 Minuten"; HOUR needs the number right after the word, so it cannot.
    const c = hourOf(around[1]!, around[2], around[3], part);
    if (c) out.around = c;
  }
  return out.after || out.before || out.around ? out : undefined;
}

/**
 * A night runs 18:00 to 06:00. Between midnight and 6 AM either word means the night in progress, so far.
 * Later, "last night" is the one that ended this morning (also at 11 PM, when another has begun) and
 * "tonight" the one that starts (or started) at 18:00 today. German "heute Nacht" before 18:00 is the night
 * just over ("War heute Nacht jemand da?"), as Germans say it.
 */
function nightOf(t: string, ctx: TimeContext, today: number): TimeWindow | undefined {
  const zone = zoneOrUtc(ctx.timezone);
  const hourNow = localHour(ctx.now, zone);
  const lastWords =
    /\b(last night|yesterday night|overnight|during the night|the night|at night|in the night|bei nacht|letzte nacht|vergangene nacht|gestern nacht|in der nacht|die nacht|nachts)\b/.test(
      t,
    );
  const tonightEn = /\btonight\b/.test(t);
  const tonightDe = /\b(heute nacht|diese nacht)\b/.test(t);
  if (!lastWords && !tonightEn && !tonightDe) return undefined;
  const start = hourNow < 6 || lastWords || (tonightDe && hourNow < 18) ? today - 1 : today;
  const from = instantOnDay(start, 18, 0, zone);
  const end = instantOnDay(start, 30, 0, zone);
  const which = start === today || end.getTime() > ctx.now.getTime() ? 'tonight' : 'last';
  const hours = hoursOf(t, undefined);
  if (!hours) return against(from, end, { type: 'night', which }, ctx.now);
  // Hours of the night: 6 to 11 are the evening it began, 12 to 5 the morning after ("between 9 and 10").
  const at = (c: ClockTime & { bare?: true }): ClockTime & { day: number } => {
    if (!c.bare) return { ...c, day: c.hour >= 12 ? start : start + 1 };
    if (c.hour >= 6 && c.hour <= 11) return { hour: c.hour + 12, minute: c.minute, day: start };
    return { hour: c.hour % 12, minute: c.minute, day: start + 1 };
  };
  const instant = (c: ClockTime & { day: number }) => instantOnDay(c.day, c.hour, c.minute, zone);
  const said = (c: ClockTime): ClockTime => ({ hour: c.hour, minute: c.minute });
  if (hours.around) {
    const c = at(hours.around);
    const centre = instant(c).getTime();
    const label: WindowLabel = { type: 'night', which, around: said(c) };
    return against(new Date(centre - 3_600_000), new Date(centre + 3_600_000), label, ctx.now);
  }
  const a = hours.after ? at(hours.after) : undefined;
  let b = hours.before ? at(hours.before) : undefined;
  if (a && b && instant(b).getTime() <= instant(a).getTime()) b = { ...b, day: b.day + 1 };
  const label: WindowLabel = {
    type: 'night',
    which,
    ...(a ? { after: said(a) } : {}),
    ...(b ? { before: said(b) } : {}),
  };
  return against(a ? instant(a) : from, b ? instant(b) : end, label, ctx.now);
}

function weekOf(t: string, ctx: TimeContext, today: number): TimeWindow | undefined {
  const zone = zoneOrUtc(ctx.timezone);
  const monday = mondayOf(today);
  if (/\b(this week|diese woche|dieser woche)\b/.test(t))
    return { from: instantOnDay(monday, 0, 0, zone), to: ctx.now, label: { type: 'week', which: 'this' } };
  if (/\b(last week|letzte woche|vergangene woche|letzten woche|vorige woche)\b/.test(t))
    return {
      from: instantOnDay(monday - 7, 0, 0, zone),
      to: instantOnDay(monday, 0, 0, zone),
      label: { type: 'week', which: 'last' },
    };
  if (/\b(weekend|wochenende)\b/.test(t)) {
    // The most recent weekend: this one while it lasts, else the one before.
    const back = (weekdayOfDay(today) - 6 + 7) % 7;
    const saturday = weekdayOfDay(today) === 0 ? today - 1 : today - back;
    return against(
      instantOnDay(saturday, 0, 0, zone),
      instantOnDay(saturday + 2, 0, 0, zone),
      { type: 'weekend' },
      ctx.now,
    );
  }
  return undefined;
}

/** A day, a part of it and hours: "yesterday after 5", "this morning", "at 3", "am Montagabend". */
function dayWindow(t: string, ctx: TimeContext, today: number): TimeWindow | undefined {
  const zone = zoneOrUtc(ctx.timezone);
  const now = ctx.now;
  const dayMatch = dayOf(t, today);
  const part = partOf(t);
  const hours = hoursOf(t, part);
  if (!dayMatch && !part && !hours) return undefined;

  let dayNumber = dayMatch?.dayNumber ?? today;
  // Before 6 AM "the evening" / "this evening" is the one just gone, as "tonight" is the night so far.
  if (!dayMatch && part === 'evening' && localHour(now, zone) < 6) dayNumber = today - 1;
  // "since yesterday", "since 6 PM yesterday", "since the evening", "seit gestern": from then until now.
  const sinceSaid =
    /\b(?:since|seit)\s+(?:(?:the|this|last|dem|heute|gestern|letzten|letzter)\s+)?(?:yesterday|gestern|vorgestern|day before yesterday|morning|afternoon|evening|morgen|vormittag|nachmittag|abend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)/.test(
      t,
    ) ||
    (hours?.since === true && dayMatch !== undefined && dayMatch.dayNumber < today);
  let after: ClockTime | undefined = hours?.after;
  let before: ClockTime | undefined = hours?.before;
  let around: ClockTime | undefined = hours?.around;
  if (dayNumber !== today) {
    if (hours?.after) after = usualHalf(hours.after);
    if (hours?.around) around = usualHalf(hours.around);
    if (hours?.before) before = after ? endAfter(after, hours.before) : usualHalf(hours.before);
  } else {
    // Today (or no day named): a bare hour is the latest such hour that has passed, yesterday's if none
    // has yet today and no day was named ("at 11" asked at 00:30 is 11 PM yesterday).
    const anchor = hours?.after ?? hours?.around;
    if (anchor?.bare) {
      const found = latestPassed(anchor, dayMatch ? [today] : [today, today - 1], zone, now) ?? {
        day: today,
        time: readings(anchor)[0]!,
      };
      dayNumber = found.day;
      if (hours?.after) after = found.time;
      else around = found.time;
    }
    if (after && hours?.before) before = endAfter(after, hours.before);
    else if (hours?.before?.bare) before = nearest(hours.before, today, zone, now);
  }

  const build = (day: number): TimeWindow => {
    let [startHour, endHour] = part ? PARTS[part] : [0, 24];
    let startMinute = 0;
    let endMinute = 0;
    if (after) [startHour, startMinute] = [after.hour, after.minute];
    if (before) [endHour, endMinute] = [before.hour, before.minute];
    // "since 6 pm" asked at 10 am means yesterday's 6 pm, until now; so does "after 11" asked at 00:30
    // (a bare hour gone back to yesterday). "after 8 pm" asked at 10 am is still ahead.
    const since =
      !dayMatch &&
      !part &&
      after !== undefined &&
      !before &&
      (day < today ||
        (hours?.since === true && instantOnDay(day, startHour, startMinute, zone).getTime() > now.getTime()));
    if (since && day === today) day -= 1;
    const untilNow = !since && sinceSaid && !before && !around;
    let from = instantOnDay(day, startHour, startMinute, zone);
    let end = since || untilNow ? now : instantOnDay(day, endHour, endMinute, zone);
    if (around) {
      // An hour either side, counted on the clock: on the spring-forward day "at 2" is the jump itself.
      const centre = instantOnDay(day, around.hour, around.minute, zone).getTime();
      from = new Date(centre - 3_600_000);
      end = new Date(centre + 3_600_000);
    }
    const dayRef: DayRef =
      day === today
        ? { type: 'today' }
        : day === today - 1
          ? { type: 'yesterday' }
          : (dayMatch?.day ?? dayRefOf(day, today));
    const label: WindowLabel = {
      type: 'day',
      day: dayRef,
      ...(part ? { part } : {}),
      ...(after ? (since || (untilNow && hours?.since) ? { since: after } : { after }) : {}),
      ...(untilNow && !hours?.since ? { untilNow: true as const } : {}),
      ...(before ? { before } : {}),
      ...(around ? { around } : {}),
    };
    // A whole day, or "since …", means "until now" anyway; a part or hours of it end at a fixed time.
    const open = since || untilNow || (!part && !after && !before && !around);
    return against(from, end, label, now, open);
  };

  const window = build(dayNumber);
  // A weekday never points ahead: "Monday evening" asked on Monday morning is last Monday's.
  if (window.timing === 'ahead' && dayMatch?.day.type === 'weekday') return build(dayNumber - 7);
  return window;
}

const AWAY = new RegExp(
  '\\b(?:what|wut|wat|wot) (?:did|have) (?:i|we) (?:miss|missed)\\b|\\bwas (?:hab|habe|haben) (?:ich|wir) verpasst\\b|' +
    '\\b(?:while|when|whilst)\\s+(?:i|we|im)\\s+(?:(?:was|were|am|are|have been|ve been|had been)\\s+)?' +
    '(?:out|away|gone|not (?:at )?home|at work|on (?:holiday|vacation)|travell?ing)\\b|\\bsince i left\\b|' +
    '\\b(?:wahrend|als|solange)\\s+(?:ich|wir)\\s+(?:weg|unterwegs|aus dem haus|nicht (?:zu ?hause|daheim|da)|' +
    'im urlaub|verreist|bei der arbeit|auf der arbeit|arbeiten)\\b|\\bseit ich (?:weg|los) bin\\b',
);

/** Without a time away or a last use, "while I was out" looks this far back (a working day or a night). */
export const AWAY_GUESS_HOURS = 8;
/** A last use older than this is not taken as the start of an absence (a day's questions, not a trip). */
const LAST_USE_MAX_MS = 3 * 86_400_000;

/**
 * "while I was out": the last away period when one is known; else a guess said as such (issue 32): since
 * the app was last used, when that was at least a little while ago and not days back, else the last hours.
 */
function awayWindow(ctx: TimeContext): TimeWindow {
  const away = ctx.away;
  if (away && away.from.getTime() < away.to.getTime() && away.from.getTime() <= ctx.now.getTime())
    return against(away.from, away.to, { type: 'away' }, ctx.now);
  const used = ctx.lastUsedAt?.getTime();
  const ago = used === undefined ? undefined : ctx.now.getTime() - used;
  if (used !== undefined && ago !== undefined && ago >= 30 * 60_000 && ago <= LAST_USE_MAX_MS)
    return { from: new Date(used), to: ctx.now, label: { type: 'away', guess: { since: 'last_use' } } };
  return {
    from: new Date(ctx.now.getTime() - AWAY_GUESS_HOURS * 3_600_000),
    to: ctx.now,
    label: { type: 'away', guess: { since: 'hours', hours: AWAY_GUESS_HOURS } },
  };
}

/** The window a folded question names, or undefined when it names none. */
export function parseTimeWindow(folded: string, ctx: TimeContext): TimeWindow | undefined {
  // "24h" reads as "24 h"; "Sonnabend" (Saturday) must not read as an evening.
  const t = folded.replace(/(\d)(h|hrs?|mins?|std)\b/g, '$1 $2').replace(/sonnabend/g, 'samstag');
  const today = localDayNumber(ctx.now, zoneOrUtc(ctx.timezone));
  // A time said outright wins over "while I was out" ("while I was out this afternoon").
  const said =
    future(t, ctx) ??
    recent(t, ctx) ??
    ago(t, ctx, today) ??
    nightOf(t, ctx, today) ??
    weekOf(t, ctx, today) ??
    dayWindow(t, ctx, today);
  if (said) return said;
  return AWAY.test(t) ? awayWindow(ctx) : undefined;
}

/**
 * A guess at when a note stops mattering, for "remember that …": the end of the day it speaks of
 * ("tomorrow", "on Tuesday", "heute Abend"), the end of this or next week or weekend; undefined (keep it)
 * when it names no time.
 */
export function guessExpiry(folded: string, ctx: TimeContext): Date | undefined {
  const t = folded;
  const zone = zoneOrUtc(ctx.timezone);
  const today = localDayNumber(ctx.now, zone);
  const endOf = (day: number) => instantOnDay(day + 1, 0, 0, zone);
  const weekday = weekdayOfDay(today);
  const sunday = today + ((7 - weekday) % 7);
  if (/\b(next week|nachste woche|kommende woche)\b/.test(t)) return endOf(sunday + 7);
  if (/\b(this week|diese woche)\b/.test(t)) return endOf(sunday);
  if (/\b(weekend|wochenende)\b/.test(t)) return endOf(sunday);
  if (/\b(day after tomorrow|ubermorgen)\b/.test(t)) return endOf(today + 2);
  if (/\b(tomorrow)\b/.test(t) || /(?<!(heute|gestern|am)\s)\bmorgen\b/.test(t)) return endOf(today + 1);
  if (/\b(today|tonight|this (morning|afternoon|evening)|heute)\b/.test(t)) return endOf(today);
  for (const [re, wd] of WEEKDAYS) {
    if (!re.test(t)) continue;
    const ahead = (((wd - weekday) % 7) + 7) % 7;
    return endOf(today + (ahead === 0 ? 7 : ahead));
  }
  return undefined;
}
