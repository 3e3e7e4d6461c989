import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn, formatInZone, zoneToName } from './time';

// The device runs in UTC; the profile says Europe/Berlin (UTC+2 in June), as in the issue.
const deviceZone = process.env.TZ;
beforeAll(() => void (process.env.TZ = 'UTC'));
afterAll(() => void (process.env.TZ = deviceZone));

describe('one clock', () => {
  it("shows an instant in the profile's zone, not the device's", () => {
    const at = '2025-06-10T01:10:00Z';
    expect(formatInZone(at, { language: 'en', timeZone: 'Europe/Berlin' })).toBe('03:10 AM');
    expect(formatInZone(at, { language: 'de', timeZone: 'Europe/Berlin' })).toBe('03:10');
    expect(formatInZone(at, { language: 'en' })).toBe('01:10 AM');
    expect(formatInZone(at, { language: 'en', timeZone: 'Europe/Berlin', style: 'stamp' })).toBe(
      'Jun 10, 03:10 AM',
    );
    expect(formatInZone(at, { language: 'en', timeZone: 'Europe/Berlin', style: 'dateTime' })).toBe(
      'Jun 10, 2025, 3:10 AM',
    );
  });

  it('follows daylight saving in the profile’s zone', () => {
    expect(formatInZone('2025-01-10T02:00:00Z', { language: 'en', timeZone: 'Europe/Berlin' })).toBe(
      '03:00 AM',
    );
  });

  it('falls back to the device’s zone for a zone the browser does not know, and shows nothing for no time', () => {
    expect(formatInZone('2025-06-10T01:10:00Z', { language: 'en', timeZone: 'Mars/Olympus' })).toBe(
      '01:10 AM',
    );
    expect(formatInZone('not a time', { language: 'en', timeZone: 'Europe/Berlin' })).toBe('');
  });

  it("names the profile's zone only where it differs from the device's", () => {
    expect(zoneToName('Europe/Berlin')).toBe('Europe/Berlin');
    expect(zoneToName('UTC')).toBeNull();
    expect(zoneToName(null)).toBeNull();
    // Another name for the same clock all year is not worth a note.
    expect(zoneToName('Europe/Paris', 'Europe/Berlin')).toBeNull();
    expect(zoneToName('America/New_York', 'Europe/Berlin')).toBe('America/New_York');
  });

  it("takes today from the profile's zone", () => {
    // 00:30 on 11 June in Berlin, still 10 June on the device.
    const at = new Date('2025-06-10T22:30:00Z');
    expect(dayIn('Europe/Berlin', at)).toBe('2025-06-11');
    expect(dayIn(undefined, at)).toBe('2025-06-10');
  });
});
