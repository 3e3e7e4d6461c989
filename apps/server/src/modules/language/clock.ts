/**
 * Times and days as the user reads them, in their own time zone: "3:12 PM" in English (12-hour clock),
 * "15:12" in German (24-hour); "yesterday", "on Monday", "am 3. Juni" relative to now.
 */
import { instantOfWallTime, wallTimeIn } from '../../platform/time.js';
import type { Language } from './lexicon.js';

const clockFormats = new Map<string, Intl.DateTimeFormat>();

function clockFormat(language: Language, timeZone: string): Intl.DateTimeFormat {
  const key = `${language}|${timeZone}`;
  let f = clockFormats.get(key);
  if (!f) {
    f =
      language === 'en'
        ? new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true })
        : new Intl.DateTimeFormat('de-DE', {
            timeZone,
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          });
    clockFormats.set(key, f);
  }
  return f;
}

const zones = new Map<string, string>();

/** An unknown or missing zone reads as UTC rather than failing a whole answer (checked once per zone). */
export function zoneOrUtc(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  let zone = zones.get(timeZone);
  if (zone === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      zone = timeZone;
    } catch {
      zone = 'UTC';
    }
    if (zones.size > 1_000) zones.clear();
    zones.set(timeZone, zone);
  }
  return zone;
}

/** "3:12 PM" / "15:12". ICU puts a narrow no-break space before AM/PM; messages and pushes want a plain one. */
export function formatClock(at: Date, timeZone: string | null | undefined, language: Language): string {
  return clockFormat(language, zoneOrUtc(timeZone)).format(at).replace(/\s/g, ' ');
}

/** "5 PM" / "17 Uhr": a whole hour of the user's day, as in "after 5 PM". */
export function formatHour(hour: number, minute: number, language: Language): string {
  if (language === 'de')
    return minute === 0 ? `${hour} Uhr` : `${hour}:${String(minute).padStart(2, '0')} Uhr`;
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  const suffix = hour < 12 ? 'AM' : 'PM';
  return minute === 0 ? `${h12} ${suffix}` : `${h12}:${String(minute).padStart(2, '0')} ${suffix}`;
}

/** The calendar day of an instant in the zone, as a day number that subtracts (days since 1970). */
export function localDayNumber(at: Date, timeZone: string | null | undefined): number {
  const w = wallTimeIn(at.getTime(), zoneOrUtc(timeZone));
  return Math.floor(Date.UTC(w.year, w.month - 1, w.day) / 86_400_000);
}

/** The hour (0–23) of the user's wall clock at an instant. */
export function localHour(at: Date, timeZone: string | null | undefined): number {
  return wallTimeIn(at.getTime(), zoneOrUtc(timeZone)).hour;
}

/** YYYY-MM-DD of the local day an instant falls on. */
export function localDate(at: Date, timeZone: string | null | undefined): string {
  const w = wallTimeIn(at.getTime(), zoneOrUtc(timeZone));
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** The instant of a wall-clock time on a local day number (see `localDayNumber`); hours may exceed 24. */
export function instantOnDay(
  dayNumber: number,
  hour: number,
  minute: number,
  timeZone: string | null | undefined,
): Date {
  return instantOfWallTime(dayNumber * 86_400_000 + hour * 3_600_000 + minute * 60_000, zoneOrUtc(timeZone));
}

/** 0 = Sunday … 6 = Saturday, of a local day number (1970-01-01 was a Thursday). */
export function weekdayOfDay(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

const WEEKDAYS: Record<Language, string[]> = {
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  de: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
};
export const weekdayName = (weekday: number, language: Language) => WEEKDAYS[language][weekday]!;

const dateFormats: Record<Language, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' }),
  de: new Intl.DateTimeFormat('de-DE', { timeZone: 'UTC', month: 'long', day: 'numeric' }),
};

/** "Jun 3" / "3. Juni" of a local day number. */
export function formatDayDate(dayNumber: number, language: Language): string {
  return dateFormats[language].format(new Date(dayNumber * 86_400_000));
}

/**
 * The day of `at` relative to `now`, as an adverbial: "today", "yesterday", "on Monday" (within the last
 * week), "on Jun 3"; German "heute", "gestern", "am Montag", "am 3. Juni".
 */
export function dayPhrase(
  at: Date,
  now: Date,
  timeZone: string | null | undefined,
  language: Language,
): string {
  const day = localDayNumber(at, timeZone);
  const ago = localDayNumber(now, timeZone) - day;
  if (ago === 0) return language === 'en' ? 'today' : 'heute';
  if (ago === 1) return language === 'en' ? 'yesterday' : 'gestern';
  const on = language === 'en' ? 'on' : 'am';
  if (ago > 1 && ago < 7) return `${on} ${weekdayName(weekdayOfDay(day), language)}`;
  return `${on} ${formatDayDate(day, language)}`;
}

/** The day of `at` as a heading: "Today", "Yesterday", "Monday" (within the last week), "Jun 3". */
export function dayName(
  at: Date,
  now: Date,
  timeZone: string | null | undefined,
  language: Language,
): string {
  const day = localDayNumber(at, timeZone);
  const ago = localDayNumber(now, timeZone) - day;
  if (ago === 0) return language === 'en' ? 'Today' : 'Heute';
  if (ago === 1) return language === 'en' ? 'Yesterday' : 'Gestern';
  if (ago > 1 && ago < 7) return weekdayName(weekdayOfDay(day), language);
  return formatDayDate(day, language);
}
