import type { MemoryExpiration } from '@homesitter/contract';

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

/** A default for a new short-term memory: tomorrow at this hour. */
export function tomorrowInput(now = new Date()): string {
  const d = new Date(now.getTime() + 24 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:00`;
}

/** "until …" in the reader's language. */
export function formatUntil(expiresAt: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(expiresAt),
  );
}
