import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration } from './format';

describe('formatting past events', () => {
  it("shows the time in the user's time zone, not the browser's", () => {
    const iso = '2026-03-01T23:30:00Z';
    expect(formatDateTime(iso, 'en', 'Europe/Berlin')).toContain('12:30');
    expect(formatDateTime(iso, 'en', 'America/New_York')).toContain('6:30');
  });

  it('falls back to the browser time zone for one it does not know', () => {
    expect(formatDateTime('2026-03-01T12:00:00Z', 'en', 'Mars/Olympus')).toMatch(/2026/);
  });

  it('shows clip lengths as m:ss, or h:mm:ss', () => {
    expect(formatDuration(7.4)).toBe('0:07');
    expect(formatDuration(62)).toBe('1:02');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});
