/**
 * A searched window said back the way it was asked: "today", "last night", "yesterday after 5 PM",
 * "in the last 3 hours", "about an hour ago", "am Montagabend", "gestern nach 17 Uhr".
 */
import { formatDayDate, formatHour, weekdayName, type Language } from '../language/language.module.js';
import type { ClockTime, DayPart, DayRef, WindowLabel } from './time-phrases.js';

const EN_PART: Record<DayPart, string> = { morning: 'morning', afternoon: 'afternoon', evening: 'evening' };
export const DE_PART: Record<DayPart, string> = {
  morning: 'Morgen',
  afternoon: 'Nachmittag',
  evening: 'Abend',
};
const DE_PART_ADVERB: Record<DayPart, string> = {
  morning: 'morgens',
  afternoon: 'nachmittags',
  evening: 'abends',
};

function dayNumberOfDate(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

function enDay(day: DayRef, part: DayPart | undefined): string {
  switch (day.type) {
    case 'today':
      return part ? `this ${EN_PART[part]}` : 'today';
    case 'yesterday':
      return part ? `yesterday ${EN_PART[part]}` : 'yesterday';
    case 'day_before_yesterday':
      return part ? `the day before yesterday in the ${EN_PART[part]}` : 'the day before yesterday';
    case 'weekday':
      return `on ${weekdayName(day.weekday, 'en')}${part ? ` ${EN_PART[part]}` : ''}`;
    case 'date':
      return `on ${formatDayDate(dayNumberOfDate(day.date), 'en')}${part ? ` in the ${EN_PART[part]}` : ''}`;
  }
}

function deDay(day: DayRef, part: DayPart | undefined): string {
  switch (day.type) {
    case 'today':
      return part ? `heute ${DE_PART[part]}` : 'heute';
    case 'yesterday':
      return part ? `gestern ${DE_PART[part]}` : 'gestern';
    case 'day_before_yesterday':
      return part ? `vorgestern ${DE_PART[part]}` : 'vorgestern';
    case 'weekday':
      // German joins weekday and part of day into one word: "am Montagabend".
      return `am ${weekdayName(day.weekday, 'de')}${part ? DE_PART[part].toLowerCase() : ''}`;
    case 'date':
      return `am ${formatDayDate(dayNumberOfDate(day.date), 'de')}${part ? ` ${DE_PART_ADVERB[part]}` : ''}`;
  }
}

/** "5 PM", "17 Uhr", "midnight". */
export function hourIn(c: ClockTime, language: Language): string {
  if (c.hour % 24 === 0 && c.minute === 0) return language === 'en' ? 'midnight' : 'Mitternacht';
  return formatHour(c.hour % 24, c.minute, language);
}

/** "5 PM" and "4 PM" as "14 und 16 Uhr" in German: the unit is said once. */
function deBetween(a: ClockTime, b: ClockTime): string {
  const bare = (c: ClockTime) =>
    c.minute === 0 ? String(c.hour) : `${c.hour}:${String(c.minute).padStart(2, '0')}`;
  return `zwischen ${bare(a)} und ${bare(b)} Uhr`;
}

export function windowPhrase(label: WindowLabel, language: Language): string {
  const en = language === 'en';
  switch (label.type) {
    case 'recent': {
      const { amount, unit } = label;
      if (en) {
        if (unit === 'day' && amount === 1) return 'in the last 24 hours';
        return amount === 1 ? `in the last ${unit}` : `in the last ${amount} ${unit}s`;
      }
      if (unit === 'day')
        return amount === 1 ? 'in den letzten 24 Stunden' : `in den letzten ${amount} Tagen`;
      const [one, many] = unit === 'hour' ? ['Stunde', 'Stunden'] : ['Minute', 'Minuten'];
      return amount === 1 ? `in der letzten ${one}` : `in den letzten ${amount} ${many}`;
    }
    case 'night': {
      const night =
        label.which === 'last' ? (en ? 'last night' : 'letzte Nacht') : en ? 'tonight' : 'heute Nacht';
      const { after, before, around } = label;
      if (after && before)
        return en
          ? `${night} between ${hourIn(after, 'en')} and ${hourIn(before, 'en')}`
          : `${night} ${deBetween(after, before)}`;
      if (after) return `${night} ${en ? 'after' : 'nach'} ${hourIn(after, language)}`;
      if (before) return `${night} ${en ? 'before' : 'vor'} ${hourIn(before, language)}`;
      if (around) return `${night} ${en ? 'around' : 'gegen'} ${hourIn(around, language)}`;
      return night;
    }
    case 'future':
      if (label.what === 'tomorrow') return en ? 'tomorrow' : 'morgen';
      return en ? 'later' : 'später';
    case 'week':
      if (label.which === 'this') return en ? 'this week' : 'diese Woche';
      return en ? 'last week' : 'letzte Woche';
    case 'weekend':
      return en ? 'over the weekend' : 'am Wochenende';
    case 'ago': {
      const { amount, unit } = label;
      if (en)
        return amount === 1
          ? `about ${unit === 'hour' ? 'an' : 'a'} ${unit} ago`
          : `about ${amount} ${unit}s ago`;
      if (unit === 'hour') return amount === 1 ? 'vor etwa einer Stunde' : `vor etwa ${amount} Stunden`;
      return amount === 1 ? 'vor etwa einer Woche' : `vor etwa ${amount} Wochen`;
    }
    case 'away': {
      const guess = label.guess;
      if (!guess) return en ? 'while you were out' : 'während du weg warst';
      if (guess.since === 'last_use')
        return en ? 'since you last used the app' : 'seit du die App zuletzt benutzt hast';
      return en ? `in the last ${guess.hours} hours` : `in den letzten ${guess.hours} Stunden`;
    }
    case 'day': {
      const base = en ? enDay(label.day, label.part) : deDay(label.day, label.part);
      const { after, before, around, since } = label;
      if (since) return en ? `since ${hourIn(since, 'en')} ${base}` : `seit ${base} ${hourIn(since, 'de')}`;
      if (label.untilNow) return en ? `since ${base.replace(/^this /, 'the ')}` : `seit ${base}`;
      if (after && before)
        return en
          ? `${base} between ${hourIn(after, 'en')} and ${hourIn(before, 'en')}`
          : `${base} ${deBetween(after, before)}`;
      if (after) return `${base} ${en ? 'after' : 'nach'} ${hourIn(after, language)}`;
      if (before) return `${base} ${en ? 'before' : 'vor'} ${hourIn(before, language)}`;
      if (around) return `${base} ${en ? 'around' : 'gegen'} ${hourIn(around, language)}`;
      return base;
    }
  }
}
