import { countPhoneDigits, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '@homesitter/contract/runtime';

/** With long numbers enabled the upper bound rises from 15 digits (docs/product.md §5). */
export const LONG_PHONE_MAX_DIGITS = 20;

export interface PhoneValue {
  /** ISO 3166 alpha-2, upper case. */
  country: string;
  callingCode: string;
  national: string;
}

export const DEFAULT_PHONE: PhoneValue = { country: 'US', callingCode: '1', national: '' };

/** `+<country code><national digits>`, or '' when no number was typed (the phone is optional). */
export function composePhone(value: PhoneValue): string {
  const digits = value.national.replace(/\D/g, '');
  return digits ? `+${value.callingCode}${digits}` : '';
}

/** The i18n key of the inline error, or null when the (optional) number is acceptable. */
export function phoneError(phone: string, enableLongNumbers = false): 'auth.validPhoneNumber' | null {
  if (!phone) return null;
  const digits = countPhoneDigits(phone);
  const max = enableLongNumbers ? LONG_PHONE_MAX_DIGITS : PHONE_MAX_DIGITS;
  return digits >= PHONE_MIN_DIGITS && digits <= max ? null : 'auth.validPhoneNumber';
}

/** Splits a stored E.164 number back into the input's parts, given the known calling codes. */
export function splitPhone(
  phone: string | null | undefined,
  codes: ReadonlyArray<[country: string, code: string]>,
): PhoneValue {
  if (!phone?.startsWith('+')) return { ...DEFAULT_PHONE, national: phone?.replace(/\D/g, '') ?? '' };
  const digits = phone.slice(1);
  const match = [...codes]
    .sort((a, b) => b[1].length - a[1].length)
    .find(([, code]) => digits.startsWith(code));
  if (!match) return { ...DEFAULT_PHONE, national: digits };
  return { country: match[0], callingCode: match[1], national: digits.slice(match[1].length) };
}
