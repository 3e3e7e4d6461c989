import { describe, expect, it } from 'vitest';
import { dayWindow, instantOfWallTime, wallTimeIn } from './time.js';

describe('wall-clock time in a zone', () => {
  it('finds the UTC bounds of a Berlin day, 23 and 25 hours long around DST', () => {
    expect(dayWindow('2026-07-01', 'Europe/Berlin')).toEqual({
      start: new Date('2026-06-30T22:00:00Z'),
      end: new Date('2026-07-01T22:00:00Z'),
    });
    const spring = dayWindow('2026-03-29', 'Europe/Berlin');
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    const autumn = dayWindow('2026-10-25', 'Europe/Berlin');
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3600_000);
  });

  it('turns a New York wall time into its instant and back', () => {
    const at = instantOfWallTime(Date.UTC(2026, 10, 20, 18, 30), 'America/New_York');
    expect(at.toISOString()).toBe('2026-11-20T23:30:00.000Z');
    expect(wallTimeIn(at.getTime(), 'America/New_York')).toMatchObject({ day: 20, hour: 18, minute: 30 });
  });
});
