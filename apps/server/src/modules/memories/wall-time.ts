import type { MemoryExpiration } from '@homesitter/contract';
import { instantOfWallTime, wallTimeIn } from '../../platform/time.js';

/** The instant a wall-clock expiration means in the user's time zone (UTC when they have none). */
export function expirationToInstant(e: MemoryExpiration, timeZone: string | null): Date {
  const [y, m, d] = e.date.split('-').map(Number) as [number, number, number];
  const hour24 = (e.hour % 12) + (e.period === 'PM' ? 12 : 0);
  const wall = Date.UTC(y, m - 1, d, hour24, e.minute);
  return timeZone ? instantOfWallTime(wall, timeZone) : new Date(wall);
}

/** The wall-clock form of an instant in the user's time zone. */
export function instantToExpiration(at: Date, timeZone: string | null): MemoryExpiration {
  const p = timeZone
    ? wallTimeIn(at.getTime(), timeZone)
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
