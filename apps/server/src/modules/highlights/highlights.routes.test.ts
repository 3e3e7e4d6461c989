import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { createHighlightsRepository } from './highlights.repository.js';
import { dayWindow } from '../../platform/time.js';

let t: TestApp;
let rose: TestUser;
let otto: TestUser;
let roseId: string;
beforeAll(async () => {
  t = await createTestApp();
  [rose, otto] = await Promise.all([signUp(t), signUp(t)]); // profiles in Europe/Berlin
  roseId = (await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: rose.auth })).json().data
    .user_uuid;
  const repo = createHighlightsRepository(t.database.db);
  const moment = {
    activity_uuid: '5b0c1d9e-8f1e-4c55-9d1a-3f1f8c1e2a01',
    date_time_utc: '2025-06-10T06:12:00.000Z',
    camera_name: 'Front door',
    description: 'Rose came home',
    thumbnail_image_url: '/media/users/r/thumb.jpg',
    clip_url: '/media/users/r/clip.mp4',
    hls_url: null,
  };
  // 10 June in Berlin (UTC+2) runs from 9 June 22:00 UTC to 10 June 22:00 UTC.
  await repo.insert({
    userId: roseId,
    siteId: null,
    period: 'hourly',
    periodStart: new Date('2025-06-10T06:00:00Z'),
    periodEnd: new Date('2025-06-10T07:00:00Z'),
    counts: { person: 2 },
    recognisedNames: ['Rose'],
    notableMoments: [moment],
    text: 'Rose came home through the front door.',
  });
  await repo.insert({
    userId: roseId,
    siteId: null,
    period: 'daily',
    periodStart: new Date('2025-06-09T22:00:00Z'),
    periodEnd: new Date('2025-06-10T22:00:00Z'),
    counts: { person: 5, vehicle: 1 },
    recognisedNames: ['Rose', 'Otto'],
    notableMoments: [moment],
    text: 'A quiet day: five visits, one car.',
    thumbnailKey: '/media/users/r/day.jpg',
  });
  await repo.insert({
    userId: roseId,
    siteId: null,
    period: 'hourly',
    periodStart: new Date('2025-06-10T22:00:00Z'),
    periodEnd: new Date('2025-06-10T23:00:00Z'),
    text: 'Already the next day in Berlin.',
  });
});
afterAll(async () => t.close());

const summaries = (who: TestUser, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/users/activity-summaries${query}`, headers: who.auth });

describe('activity summaries', () => {
  it("answers the day's summaries in the user's time zone, the daily one first", async () => {
    const res = await summaries(rose, '?date=2025-06-10');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.map((s: { period: string }) => s.period)).toEqual(['daily', 'hourly']);
    expect(data[0]).toMatchObject({
      site_uuid: null,
      period_start: '2025-06-09T22:00:00.000Z',
      counts: { person: 5, vehicle: 1 },
      recognised_names: ['Rose', 'Otto'],
      text: 'A quiet day: five visits, one car.',
      thumbnail_image_url: '/media/users/r/day.jpg',
    });
    expect(data[1].notable_moments[0]).toMatchObject({
      camera_name: 'Front door',
      clip_url: '/media/users/r/clip.mp4',
    });
  });

  it('answers an empty list for a day without summaries, and for another user', async () => {
    expect((await summaries(rose, '?date=2025-06-12')).json()).toEqual({ success: true, data: [] });
    expect((await summaries(otto, '?date=2025-06-10')).json()).toEqual({ success: true, data: [] });
  });

  it('refuses a missing, malformed or out-of-range date with 400 and the text of docs/product.md', async () => {
    const malformed = ['', '?date=10.06.2025', '?date=2025-02-30', '?date=2025-6-1', '?date=2025-06-10&x=1'];
    // Days no camera can have seen, down to the last the calendar has.
    for (const q of [...malformed, '?date=9999-12-31', '?date=0001-01-01', '?date=3000-01-01']) {
      const res = await summaries(rose, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toBe(MESSAGES.fetchActivitySummaryFailed);
    }
  });
});

describe('day windows', () => {
  it('follow the zone, daylight saving included', () => {
    expect(dayWindow('2025-06-10', 'UTC').start.toISOString()).toBe('2025-06-10T00:00:00.000Z');
    expect(dayWindow('2025-01-10', 'Europe/Berlin').start.toISOString()).toBe('2025-01-09T23:00:00.000Z');
    const spring = dayWindow('2025-03-30', 'Europe/Berlin');
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
    const ny = dayWindow('2025-11-02', 'America/New_York');
    expect(ny.start.toISOString()).toBe('2025-11-02T04:00:00.000Z');
    expect((ny.end.getTime() - ny.start.getTime()) / 3_600_000).toBe(25);
  });
});
