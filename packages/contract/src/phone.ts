import { DEFAULT_COUNTRY_CODE, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants.js';

/**
 * docs/product.md §5 phone normalisation: strip everything but digits and plus, keep a leading +; a bare number that
 * starts with 1 gets a +, any other bare number gets +1.
 */
export function normalizePhone(input: string): string {
  const trimmed = input.trim();
  const hasPlus = trimmed.startsWith('+');
  const digits = trimmed.replace(/\D/g, '');
  if (hasPlus) return `+${digits}`;
  if (digits.startsWith('1')) return `+${digits}`;
  return `${DEFAULT_COUNTRY_CODE}${digits}`;
}

export function countPhoneDigits(phone: string): number {
  return phone.replace(/\D/g, '').length;
}

/** True when the number (raw or normalised) has between 10 and 15 digits. */
export function isValidPhoneLength(phone: string, maxDigits: number = PHONE_MAX_DIGITS): boolean {
  const n = countPhoneDigits(phone);
  return n >= PHONE_MIN_DIGITS && n <= maxDigits;
}
