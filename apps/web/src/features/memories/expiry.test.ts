import { describe, expect, it } from 'vitest';
import { expirationFromInput, formatUntil, tomorrowInput } from './expiry';

describe('short-term memory expiry in the profile’s time zone', () => {
  it('defaults to tomorrow at this hour on the profile’s clock, not the device’s', () => {
    // 23:30 UTC is 00:30 the next day in Berlin (winter) and 15:30 the same day in Los Angeles.
    const now = new Date('2026-01-10T23:30:00Z');
    expect(tomorrowInput(now, 'Europe/Berlin')).toBe('2026-01-12T00:00');
    expect(tomorrowInput(now, 'America/Los_Angeles')).toBe('2026-01-11T15:00');
    expect(tomorrowInput(now, 'UTC')).toBe('2026-01-11T23:00');
  });

  it('round-trips the default into the API’s wall-clock expiration', () => {
    expect(expirationFromInput(tomorrowInput(new Date('2026-06-01T10:15:00Z'), 'UTC'))).toEqual({
      date: '2026-06-02',
      hour: 10,
      minute: 0,
      period: 'AM',
    });
  });

  it('shows the expiry on the profile’s clock', () => {
    expect(formatUntil('2026-03-01T23:30:00Z', 'en', 'Europe/Berlin')).toContain('12:30');
    expect(formatUntil('2026-03-01T23:30:00Z', 'en', 'America/New_York')).toContain('6:30');
  });
});
