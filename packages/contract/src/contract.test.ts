import { describe, expect, it } from 'vitest';
import {
  endpoints,
  LANGUAGES,
  MESSAGES,
  normalizePhone,
  phoneNumberSchema,
  SUPPORTED_LANGUAGES,
  type Endpoint,
} from './index.js';

describe('phone numbers (docs/product.md §5)', () => {
  it.each([
    ['(555) 123-4567', '+15551234567'],
    ['1-555-123-4567', '+15551234567'],
    ['+49 170 1234567', '+491701234567'],
    [' +44 (20) 7946-0958 ', '+442079460958'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it('accepts 10 to 15 digits after normalising, and nothing else', () => {
    expect(phoneNumberSchema.safeParse('555 123 4567').success).toBe(true);
    expect(phoneNumberSchema.safeParse('12345').success).toBe(false);
    expect(phoneNumberSchema.safeParse('+1234567890123456').success).toBe(false);
  });
});

describe('endpoint map', () => {
  const list: Endpoint[] = Object.values(endpoints);

  it('names each method and path once', () => {
    const keys = list.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('uses only docs/product.md §8 texts as failure messages', () => {
    const texts = new Set<string>(Object.values(MESSAGES));
    for (const e of list) if (e.failureMessage) expect(texts).toContain(e.failureMessage);
  });

  it('keeps every path under /api', () => {
    for (const e of list) expect(e.path.startsWith('/api/')).toBe(true);
  });
});

describe('languages', () => {
  it('offers en and de, and lists about 60 more as coming soon', () => {
    expect(LANGUAGES.filter((l) => l.supported).map((l) => l.code)).toEqual([...SUPPORTED_LANGUAGES]);
    const comingSoon = LANGUAGES.filter((l) => !l.supported);
    expect(comingSoon.length).toBeGreaterThanOrEqual(55);
    expect(new Set(LANGUAGES.map((l) => l.code)).size).toBe(LANGUAGES.length);
  });
});
