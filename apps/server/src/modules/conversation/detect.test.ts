import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect.js';

describe('detectLanguage', () => {
  it.each([
    ['War heute jemand an der Haustür?', 'de'],
    ['Merk dir, dass der Klempner morgen kommt', 'de'],
    ['Did anyone come to the front door today?', 'en'],
    ['What happened last night?', 'en'],
    ['Hi', undefined],
    ['Rose?', undefined],
    ['ok', undefined],
    ['Paket?', 'de'],
    ['Einfahrt?', 'de'],
    ['Hütte', 'de'],
    ['Danke!', 'de'],
    ['any package?', 'en'],
    ['thanks', 'en'],
  ])('%s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });
});
