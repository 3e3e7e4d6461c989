import { z } from 'zod';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants.js';
import { SUPPORTED_LANGUAGES } from './languages.js';
import { countPhoneDigits, normalizePhone } from './phone.js';

export const emailSchema = z
  .string({ message: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'Email address is too long')
  .pipe(z.email({ message: 'Please enter a valid email address' }));

/** A phone number as typed; normalised (§5) and then checked for 10 to 15 digits. */
export const phoneNumberSchema = z
  .string()
  .max(32, 'Phone number is too long')
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

export const timezoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'Time zone must be an IANA name such as Europe/Berlin' });

export const supportedLanguageSchema = z.enum(SUPPORTED_LANGUAGES);

export const languageEntrySchema = z.object({
  code: z.string(),
  name: z.string(),
  supported: z.boolean(),
});
