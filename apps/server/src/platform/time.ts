/**
 * Wall-clock time in a user's time zone, with Intl only (no tz database of our own). Used wherever the
 * product speaks in the user's day: highlights of a date, memory expiry "until 6 PM".
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, f);
  }
  return f;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock in `timeZone` at an instant. */
export function wallTimeIn(ms: number, timeZone: string): WallTime {
  const p = Object.fromEntries(
    formatFor(timeZone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    second: Number(p.second),
  };
}

/** How far the zone's wall clock is ahead of UTC at that instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const p = wallTimeIn(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a wall-clock time means in `timeZone`. `wallAsUtc` is the wall time written as if it were
 * UTC (`Date.UTC(y, m - 1, d, h, min)`). Around a DST change the offset at the answer can differ from the
 * one at the guess, hence the second step.
 */
export function instantOfWallTime(wallAsUtc: number, timeZone: string): Date {
  let ms = wallAsUtc - offsetAt(wallAsUtc, timeZone);
  ms = wallAsUtc - offsetAt(ms, timeZone);
  return new Date(ms);
}

/** [start, end) of the calendar day `date` (YYYY-MM-DD) in the zone: 23, 24 or 25 hours long. */
export function dayWindow(date: string, timeZone: string): { start: Date; end: Date } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return {
    start: instantOfWallTime(Date.UTC(y, m - 1, d), timeZone),
    end: instantOfWallTime(Date.UTC(y, m - 1, d + 1), timeZone),
  };
}
