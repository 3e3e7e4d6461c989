import type { MemoryExpiration } from '@homesitter/contract';

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

function partsOf(ms: number, timeZone: string) {
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
  const p = partsOf(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall-clock expiration means in the user's time zone (UTC when they have none). */
export function expirationToInstant(e: MemoryExpiration, timeZone: string | null): Date {
  const [y, m, d] = e.date.split('-').map(Number) as [number, number, number];
  const hour24 = (e.hour % 12) + (e.period === 'PM' ? 12 : 0);
  const wall = Date.UTC(y, m - 1, d, hour24, e.minute);
  if (!timeZone) return new Date(wall);
  let ms = wall - offsetAt(wall, timeZone);
  ms = wall - offsetAt(ms, timeZone);
  return new Date(ms);
}

/** The wall-clock form of an instant in the user's time zone. */
export function instantToExpiration(at: Date, timeZone: string | null): MemoryExpiration {
  const p = timeZone
    ? partsOf(at.getTime(), timeZone)
    : {
        year: at.getUTCFullYear(),
        month: at.getUTCMonth() + 1,
        day: at.getUTCDate(),
        hour: at.getUTCHours(),
        minute: at.getUTCMinutes(),
      };
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${p.year}-${pad(p.month)}-${pad(p.day)}`,
    hour: p.hour % 12 === 0 ? 12 : p.hour % 12,
    minute: p.minute,
    period: p.hour >= 12 ? 'PM' : 'AM',
  };
}
