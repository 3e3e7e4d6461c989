import type { MemoryExpiration } from '@homesitter/contract';
import { formatInZone } from '../../shared/lib/time';

/** `<input type="datetime-local">` value → the API's wall-clock expiration. */
export function expirationFromInput(value: string): MemoryExpiration | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return null;
  const hour24 = Number(m[2]);
  return {
    date: m[1]!,
    hour: hour24 % 12 === 0 ? 12 : hour24 % 12,
    minute: Number(m[3]),
    period: hour24 >= 12 ? 'PM' : 'AM',
  };
}

/**
 * A default for a new short-term memory: tomorrow at this hour, as a wall-clock time of `timeZone` (the
 * profile's: the server reads the expiration in it), the device's when none or unknown.
 */
export function tomorrowInput(now = new Date(), timeZone?: string | null): string {
  const d = new Date(now.getTime() + 24 * 3600_000);
  const parts = wallClockParts(d, timeZone);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:00`;
}

function wallClockParts(at: Date, timeZone: string | null | undefined) {
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { ...options, ...(timeZone ? { timeZone } : {}) });
  } catch {
    format = new Intl.DateTimeFormat('en-US', options);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    format.formatToParts(at).find((p) => p.type === type)?.value ?? '00';
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour') };
}

/** "until …" in the reader's language and the profile's time zone (the one the expiration was set in). */
export function formatUntil(expiresAt: string, language: string, timeZone?: string | null): string {
  return formatInZone(expiresAt, { language, timeZone, style: 'dateTime' });
}
