/**
 * One clock for every screen: times are shown in the profile's time zone (the one the server writes its
 * texts in: "A person walked up to the Door at 3:10 AM"), not the device's, so a card's "03:10 AM" and its
 * text agree wherever the browser runs. Formatters are built once per language, zone and style.
 */

export type TimeStyle = 'time' | 'dateTime' | 'stamp';

const STYLES: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  /** "03:10 AM" / "03:10" */
  time: { hour: '2-digit', minute: '2-digit' },
  /** "Mar 12, 2025, 2:05 PM" */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** "12 Mar, 03:10 AM": a chat bubble's stamp */
  stamp: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** The cached formatter; a zone the browser does not know falls back to the device's own. */
function formatter(language: string, timeZone: string | null | undefined, style: TimeStyle) {
  const key = `${language}|${timeZone ?? ''}|${style}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(language, { ...STYLES[style], ...(timeZone ? { timeZone } : {}) });
    } catch {
      format = new Intl.DateTimeFormat(language, STYLES[style]);
    }
    formats.set(key, format);
  }
  return format;
}

/** An instant (ISO 8601 or Date) in `timeZone` (the device's when none); '' for one that is not a time. */
export function formatInZone(
  at: string | Date,
  options: { language: string; timeZone?: string | null | undefined; style?: TimeStyle },
): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return '';
  return formatter(options.language, options.timeZone, options.style ?? 'time').format(date);
}

/** The device's own time zone (IANA name), when the browser tells it. */
export function deviceTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * The zone to name on a screen ("Times in Europe/Berlin"): the profile's, when it is not the device's (the
 * same offset all year under another name, e.g. Europe/Paris on a Berlin device, is not named); none when
 * they agree or the profile has none.
 */
export function zoneToName(
  timeZone: string | null | undefined,
  device: string | undefined = deviceTimeZone(),
): string | null {
  if (!timeZone || !device || timeZone === device) return null;
  const sameOffset = (at: Date) => offsetAt(at, timeZone) === offsetAt(at, device);
  const year = new Date().getUTCFullYear();
  const agree = sameOffset(new Date(Date.UTC(year, 0, 15))) && sameOffset(new Date(Date.UTC(year, 6, 15)));
  return agree ? null : timeZone;
}

/** The zone's UTC offset at an instant, as the browser names it ("GMT+2"); '' for a zone it does not know. */
function offsetAt(at: Date, timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(
      at,
    );
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** YYYY-MM-DD of the day `now` falls on in `timeZone` (the device's when none): the highlights' "today". */
export function dayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  const parts = formatterParts(timeZone).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function formatterParts(timeZone: string | null | undefined) {
  const key = timeZone ?? '';
  let format = dayFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, ...(timeZone ? { timeZone } : {}) });
    } catch {
      format = new Intl.DateTimeFormat('en-US', options);
    }
    dayFormats.set(key, format);
  }
  return format;
}
