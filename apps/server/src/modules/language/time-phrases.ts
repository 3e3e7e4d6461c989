/**
 * Time phrases of a question, English and German, turned into a window of the user's own day:
 * "today", "last night" (18:00 the day before until 06:00), "this morning", "yesterday after 5",
 * "gestern nach 17 Uhr", "in the last 3 hours", "in den letzten 30 Minuten", "on Monday", "last week",
 * "am 3. Juni". Works on folded text (see fold.ts). Without any phrase the caller uses the last 24 hours.
 */
import { instantOnDay, localDayNumber, localHour, weekdayOfDay, zoneOrUtc } from './clock.js';
import { numberFromWord } from './lexicon.js';

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
    }
  | { type: 'night'; which: 'last' | 'tonight' }
  | { type: 'week'; which: 'this' | 'last' }
  | { type: 'weekend' };

export interface TimeWindow {
  from: Date;
  to: Date;
  label: WindowLabel;
}

export interface TimeContext {
  now: Date;
  timezone: string | null | undefined;
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

const PARTS: Record<DayPart, [number, number]> = {
  morning: [6, 12],
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

/** "in the last 3 hours", "past hour", "last 30 min", "in den letzten 2 Stunden", "seit 20 Minuten". */
function recent(t: string, ctx: TimeContext): TimeWindow | undefined {
  const unitWords = 'minutes?|mins?|hours?|hrs?|h|days?|weeks?|minuten?|stunden?|std|tagen?|tage|wochen?';
  const patterns = [
    new RegExp(
      `\\b(?:last|past|previous)\\s+(?:(couple of|few|${NUMBER_WORD})\\s+)?(half an? hour|${unitWords})\\b`,
    ),
    new RegExp(
      `\\b(?:letzten|letzte|vergangenen|vergangene|letzter|vergangener)\\s+(?:(${NUMBER_WORD}|paar)\\s+)?(halben? stunde|${unitWords})\\b`,
    ),
    new RegExp(`\\bseit\\s+(${NUMBER_WORD}|einer|einem)\\s+(${unitWords})\\b`),
    new RegExp(`\\b(${NUMBER_WORD})\\s+(${unitWords})\\s+ago\\b`),
    new RegExp(`\\bvor\\s+(${NUMBER_WORD}|einer|einem)\\s+(${unitWords})\\b`),
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
      const perUnit = { minute: 1, hour: 60, day: 1440, week: 10_080 }[unit];
      minutes = amount * perUnit;
      label =
        unit === 'week'
          ? { type: 'recent', amount: amount * 7, unit: 'day' }
          : { type: 'recent', amount, unit };
    }
    return { from: new Date(ctx.now.getTime() - minutes * 60_000), to: ctx.now, label };
  }
  return undefined;
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

/** An hour as the user meant it: "5" after work is 17:00, "17 Uhr" is 17:00, "5 am" is 05:00. */
function hourOf(
  hourText: string,
  minuteText: string | undefined,
  suffix: string | undefined,
  part: DayPart | undefined,
): ClockTime | undefined {
  let hour = Number(hourText);
  const minute = minuteText ? Number(minuteText) : 0;
  if (hour > 24 || minute > 59) return undefined;
  const s = (suffix ?? '').replace(/\./g, '').trim();
  if (s === 'pm' || /abends|nachmittags/.test(s)) {
    if (hour < 12) hour += 12;
  } else if (s === 'am' || /morgens|fruh|vormittags/.test(s)) {
    if (hour === 12) hour = 0;
  } else if (s === 'uhr') {
    if (hour < 12 && (part === 'afternoon' || part === 'evening')) hour += 12;
  } else if (hour <= 12) {
    // No am/pm: a day part decides; otherwise 1–6 read as afternoon/evening, 7–11 as morning.
    if (part === 'afternoon' || part === 'evening') hour = hour === 12 ? 12 : hour + 12;
    else if (part !== 'morning' && hour >= 1 && hour <= 6) hour += 12;
  }
  return { hour, minute };
}

const HOUR =
  '(\\d{1,2})(?::(\\d{2}))?\\s*(a\\.?m\\.?|p\\.?m\\.?|uhr(?:\\s+(?:abends|nachmittags|morgens|fruh|vormittags))?)?';

interface HourConstraint {
  after?: ClockTime;
  before?: ClockTime;
  around?: ClockTime;
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
  const afterWord = /\b(?:after|since|nach|seit|ab)\s+(noon|midday|mittag)\b/.exec(t);
  const before = new RegExp(`\\b(?:before|until|till|vor|bis)\\s+${HOUR}`).exec(t);
  const beforeWord = /\b(?:before|until|vor|bis)\s+(noon|midday|midnight|mittag|mitternacht)\b/.exec(t);
  const around = new RegExp(`\\b(?:around|about|at|um|gegen|circa|ca\\.?)\\s+${HOUR}`).exec(t);
  const out: HourConstraint = {};
  if (after) {
    const c = hourOf(after[1]!, after[2], after[3], part);
    if (c) out.after = c;
  } else if (afterWord) out.after = noonWord(afterWord[1]!);
  if (before) {
    const c = hourOf(before[1]!, before[2], before[3], part);
    if (c) out.before = c;
  } else if (beforeWord) out.before = noonWord(beforeWord[1]!);
  if (!out.after && !out.before && around) {
    // "um 5" must not read "vor 5 Minuten"; HOUR needs the number right after the word, so it cannot.
    const c = hourOf(around[1]!, around[2], around[3], part);
    if (c) out.around = c;
  }
  return out.after || out.before || out.around ? out : undefined;
}

function nightOf(t: string, ctx: TimeContext, today: number): TimeWindow | undefined {
  const zone = zoneOrUtc(ctx.timezone);
  const hourNow = localHour(ctx.now, zone);
  const last =
    /\b(last night|overnight|letzte nacht|vergangene nacht|in der nacht|nachts|during the night)\b/.test(t) ||
    (/\b(heute nacht|diese nacht|tonight)\b/.test(t) && hourNow < 12);
  const tonight = /\b(heute nacht|diese nacht|tonight)\b/.test(t);
  if (!last && !tonight) return undefined;
  // The night before today runs 18:00 yesterday to 06:00 today; "tonight" asked in the evening is today's.
  const start = last ? today - 1 : today;
  const from = instantOnDay(start, 18, 0, zone);
  const to = instantOnDay(start, 30, 0, zone);
  return {
    from,
    to: new Date(Math.max(from.getTime(), Math.min(to.getTime(), ctx.now.getTime()))),
    label: { type: 'night', which: last ? 'last' : 'tonight' },
  };
}

function weekOf(t: string, ctx: TimeContext, today: number): TimeWindow | undefined {
  const zone = zoneOrUtc(ctx.timezone);
  const monday = today - ((weekdayOfDay(today) + 6) % 7);
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
    const to = instantOnDay(saturday + 2, 0, 0, zone);
    return {
      from: instantOnDay(saturday, 0, 0, zone),
      to: to.getTime() > ctx.now.getTime() ? ctx.now : to,
      label: { type: 'weekend' },
    };
  }
  return undefined;
}

/** The window a folded question names, or undefined when it names none. */
export function parseTimeWindow(folded: string, ctx: TimeContext): TimeWindow | undefined {
  // "24h" reads as "24 h"; "Sonnabend" (Saturday) must not read as an evening.
  const t = folded.replace(/(\d)(h|hrs?|mins?|std)\b/g, '$1 $2').replace(/sonnabend/g, 'samstag');
  const zone = zoneOrUtc(ctx.timezone);
  const today = localDayNumber(ctx.now, zone);
  const recentWindow = recent(t, ctx);
  if (recentWindow) return recentWindow;
  const night = nightOf(t, ctx, today);
  if (night) return night;
  const week = weekOf(t, ctx, today);
  if (week) return week;

  const dayMatch = dayOf(t, today);
  const part = partOf(t);
  const hours = hoursOf(t, part);
  if (!dayMatch && !part && !hours) return undefined;

  let dayNumber = dayMatch?.dayNumber ?? today;
  const day = dayMatch?.day ?? { type: 'today' as const };
  let [startHour, endHour] = part ? PARTS[part] : [0, 24];
  let startMinute = 0;
  let endMinute = 0;
  if (hours?.after) {
    startHour = hours.after.hour;
    startMinute = hours.after.minute;
  }
  if (hours?.before) {
    endHour = hours.before.hour;
    endMinute = hours.before.minute;
  }
  if (hours?.around) {
    const centre = hours.around.hour * 60 + hours.around.minute;
    startHour = 0;
    startMinute = centre - 60;
    endHour = 0;
    endMinute = centre + 60;
  }
  // "since 6 pm" asked at 10 am means yesterday's 6 pm, until now.
  const sinceYesterday =
    !dayMatch &&
    !part &&
    hours?.after !== undefined &&
    !hours.before &&
    instantOnDay(dayNumber, startHour, startMinute, zone).getTime() > ctx.now.getTime();
  if (sinceYesterday) dayNumber -= 1;
  const from = instantOnDay(dayNumber, startHour, startMinute, zone);
  const end = sinceYesterday ? ctx.now : instantOnDay(dayNumber, endHour, endMinute, zone);
  const label: WindowLabel = {
    type: 'day',
    day: dayNumber === today ? { type: 'today' } : dayNumber === today - 1 ? { type: 'yesterday' } : day,
    ...(part ? { part } : {}),
    ...(hours?.after ? (sinceYesterday ? { since: hours.after } : { after: hours.after }) : {}),
    ...(hours?.before ? { before: hours.before } : {}),
    ...(hours?.around ? { around: hours.around } : {}),
  };
  // A window still ahead ("this evening" asked at 4 PM) is empty rather than reversed.
  const to = new Date(Math.max(from.getTime(), Math.min(end.getTime(), ctx.now.getTime())));
  return { from, to, label };
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
