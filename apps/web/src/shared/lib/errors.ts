import { MESSAGES } from '@homesitter/contract/runtime';
import type { MessageKey } from '@homesitter/contract';
import type { TFunction } from 'i18next';
import { ApiError } from './http';

const keyByMessage = new Map<string, MessageKey>(
  (Object.entries(MESSAGES) as [MessageKey, string][]).map(([key, text]) => [text, key]),
);

/**
 * The text to show for a failure: a §8 catalogue message in the user's language (English is the product's
 * exact text), the server's own message otherwise, else `fallback`.
 */
export function errorText(t: TFunction, error: unknown, fallback: string): string {
  const message = error instanceof Error ? error.message : '';
  const messageKey = keyByMessage.get(message);
  if (messageKey) return t(`errors.${messageKey}`);
  if (error instanceof ApiError && error.status > 0 && message) return message;
  const fallbackKey = keyByMessage.get(fallback);
  return fallbackKey ? t(`errors.${fallbackKey}`) : fallback;
}
