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
