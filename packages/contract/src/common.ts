import { z } from 'zod';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants.js';
import { SUPPORTED_LANGUAGES } from './languages.js';
import { countPhoneDigits, normalizePhone } from './phone.js';

/** U+0000–U+001F and U+007F; `allowed` are the line characters a multi-line text keeps. */
function hasControl(value: string, allowed: string): boolean {
  for (const c of value) {
    const code = c.charCodeAt(0);
    if ((code < 32 || code === 127) && !allowed.includes(c)) return true;
  }
  return false;
}

/**
 * Text typed on one line (a name, an email, a phone number, a token, a title): no control character at all,
 * so no NUL reaches PostgreSQL (it refuses it) and nothing invisible lands in a name. `base` carries the
 * field's own checks and messages; this one runs after them (after `.trim()`, so a pasted trailing newline
 * is still trimmed away) and says `<label> must not contain control characters`.
 */
export function singleLineText(label: string, base: z.ZodString = z.string()): z.ZodString {
  return base.refine((v) => !hasControl(v, ''), {
    message: `${label} must not contain control characters`,
  });
}

/** Text that may span lines (notes, chat messages, descriptions): as `singleLineText`, but tab, LF and CR stay. */
export function multiLineText(label: string, base: z.ZodString = z.string()): z.ZodString {
  return base.refine((v) => !hasControl(v, '\t\n\r'), {
    message: `${label} must not contain control characters`,
  });
}

/**
 * The instants a date a client sends may name: from 2000-01-01 up to, not including, 2100-01-01 (UTC). A
 * date outside is a typo or a broken clock; refused with 400 rather than stored as something else (the
 * database reads year 1 as 2001).
 */
export const CLIENT_DATE_RANGE = { from: '2000-01-01', until: '2099-12-31' } as const;
const CLIENT_DATE_MIN_MS = Date.parse('2000-01-01T00:00:00Z');
const CLIENT_DATE_MAX_MS = Date.parse('2100-01-01T00:00:00Z');

/**
 * A date or date-time a client sends (`base` checks its format and says so): inside CLIENT_DATE_RANGE, else
 * `<label> must be between 2000-01-01 and 2099-12-31`. A value the format check refused is left to it.
 */
export function clientDate<T extends z.ZodString | z.ZodISODateTime | z.ZodISODate>(
  label: string,
  base: T,
): T {
  return base.refine(
    (v) => {
      const ms = Date.parse(v);
      return Number.isNaN(ms) || (ms >= CLIENT_DATE_MIN_MS && ms < CLIENT_DATE_MAX_MS);
    },
    { message: `${label} must be between ${CLIENT_DATE_RANGE.from} and ${CLIENT_DATE_RANGE.until}` },
  ) as T;
}

export const emailSchema = singleLineText(
  'Email',
  z.string({ message: 'Email is required' }).trim().toLowerCase().max(254, 'Email address is too long'),
).pipe(z.email({ message: 'Please enter a valid email address' }));

/** A phone number as typed; normalised (§5) and then checked for 10 to 15 digits. */
export const phoneNumberSchema = singleLineText(
  'Phone number',
  z.string().max(32, 'Phone number is too long'),
)
  .transform(normalizePhone)
  .refine((p) => countPhoneDigits(p) >= PHONE_MIN_DIGITS && countPhoneDigits(p) <= PHONE_MAX_DIGITS, {
    message: `Phone number must have ${PHONE_MIN_DIGITS} to ${PHONE_MAX_DIGITS} digits`,
  });

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const timezoneSchema = singleLineText('timezone', z.string().min(1).max(64)).refine(isTimeZone, {
  message: 'Time zone must be an IANA name such as Europe/Berlin',
});

export const supportedLanguageSchema = z.enum(SUPPORTED_LANGUAGES);

export const languageEntrySchema = z.object({
  code: z.string(),
  name: z.string(),
  supported: z.boolean(),
});

/**
 * The point of a picture a cover crop keeps in view, as fractions (0..1) of its width and height: the upper
 * part of the people detected in it, else the largest vehicle or animal, else the centre. Clients use it as
 * CSS `object-position: x% y%`.
 */
export const pictureFocusSchema = z.object({
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
});
export type PictureFocus = z.infer<typeof pictureFocusSchema>;
