import { formatInZone } from '../../shared/lib/time';

/**
 * "12 Mar, 14:05" in the user's language and time zone (the profile's, when known; else the browser's).
 */
export function formatDateTime(iso: string, language: string, timeZone?: string | null): string {
  return formatInZone(iso, { language, timeZone, style: 'dateTime' });
}

/** "0:07" or "1:02:03" for a clip's length. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
