import type { Money } from '@homesitter/contract';

/** A minor-unit amount (cents) as the user's language writes that currency: 999 usd → "$9.99", "9,99 $". */
export function formatMoney({ amount, currency }: Money, language: string): string {
  try {
    const format = new Intl.NumberFormat(language, { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** An ISO time as a date in the user's language and time zone. */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(date);
}
