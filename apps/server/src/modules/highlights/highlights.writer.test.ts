import type { ActivitySummary } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { recordCalls } from '../../../test/calls.js';
import { startFakeLlm } from '../../../test/fake-llm.js';
import { createOpenAiLlm } from '../../adapters/llm/openai.llm.js';
import { createLogger } from '../../platform/logger.js';
import { createLlmSummarizer } from './llm-summary.js';
import { createHighlightsRepository } from './highlights.repository.js';
import { createHighlightsWriter } from './highlights.writer.js';
import { activities } from '../../platform/db/schema.js';
import {
  car,
  dog,
  insertActivity,
  person,
  userWithCameras,
  type World,
} from '../assistant/assistant.test-support.js';
import { eq } from 'drizzle-orm';

// Users live in Europe/Berlin (UTC+2 in June): 10 June runs from 9 June 22:00 UTC to 10 June 22:00 UTC.
let t: TestApp;
let world: World;
const ROSE = '0b6a0b55-3c1e-4a55-9e2a-1f2f3e4d5c6b';

beforeAll(async () => {
  t = await createTestApp();
  world = await userWithCameras(t, { Home: ['Front Door', 'Driveway'], Cabin: ['Porch'], '': ['Shed'] });
  await insertActivity(t, world, world.cameras['Front Door']!, {
    at: new Date('2025-06-10T07:12:00Z'),
    objects: [person()],
    recognised: [{ category: 'people', memory_uuid: ROSE, name: 'Rose' }],
  });
  await insertActivity(t, world, world.cameras.Driveway!, {
    at: new Date('2025-06-10T07:40:00Z'),
    objects: [car('white')],
    mediaKind: 'video',
    keys: { video: `users/${world.userId}/activities/a/clip.mp4` },
  });
  await insertActivity(t, world, world.cameras['Front Door']!, { at: new Date('2025-06-10T07:50:00Z') });
  await insertActivity(t, world, world.cameras.Porch!, {
    at: new Date('2025-06-10T07:30:00Z'),
    objects: [dog()],
  });
  await insertActivity(t, world, world.cameras.Shed!, {
    at: new Date('2025-06-10T09:10:00Z'),
    // Standing right of the middle of the 1280×720 picture, head at the top.
    objects: [{ ...person(), box: [800, 60, 200, 600] }],
  });
  // Kept only for its alert (amnesia mode at the time): never summarised.
  await insertActivity(t, world, world.cameras['Front Door']!, {
    at: new Date('2025-06-10T07:20:00Z'),
    objects: [person(), person()],
    ephemeralUntil: new Date('2025-06-11T07:20:00Z'),
  });
});
afterAll(() => t.close());

async function summaries(who: World, date: string): Promise<ActivitySummary[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/users/activity-summaries?date=${date}`,
    headers: who.user.auth,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: ActivitySummary[] }>().data;
}
const of = (list: ActivitySummary[], period: 'hourly' | 'daily', siteId: string | null) =>
  list.filter((s) => s.period === period && s.site_uuid === siteId);

describe('hourly highlights', () => {
  it("summarise each property's last complete local hours", async () => {
    // 10:05 in Berlin: the hours 08:00–09:00 and 09:00–10:00 are complete.
    const written = await t.modules.highlights.hourly(new Date('2025-06-10T08:05:00Z'));
    expect(written).toBe(2);
    const list = await summaries(world, '2025-06-10');
    const [home] = of(list, 'hourly', world.sites.Home!);
    expect(home).toMatchObject({
      period_start: '2025-06-10T07:00:00.000Z',
      period_end: '2025-06-10T08:00:00.000Z',
      counts: { person: 1, vehicle: 1, other: 1 },
      recognised_names: ['Rose'],
      text:
        'Between 9:00 AM and 10:00 AM at Home: three events, one with a person, one with a vehicle, and one with motion only. ' +
        'Recognised: Rose. Notable: A white car pulled into the Driveway at 9:40 AM. Rose walked up to the Front Door at 9:12 AM.',
    });
    // Newest first, as the text names them.
    expect(home!.notable_moments.map((m) => [m.camera_name, m.date_time_utc])).toEqual([
      ['Driveway', '2025-06-10T07:40:00.000Z'],
      ['Front Door', '2025-06-10T07:12:00.000Z'],
    ]);
    const clip = home!.notable_moments[0]!;
    expect(clip.clip_url).toMatch(/^http:\/\/homesitter\.test\/media\/users\/.+\/clip\.mp4\?exp=\d+&sig=/);
    expect(clip.thumbnail_image_url).toMatch(/thumb\.jpg\?exp=\d+&sig=/);
    expect(of(list, 'hourly', world.sites.Cabin!)[0]).toMatchObject({
      counts: { animal: 1 },
      recognised_names: [],
    });
  });
});

describe('daily highlights', () => {
  it("write today's summary per property and update it as the day goes on", async () => {
    await t.modules.highlights.daily(new Date('2025-06-10T09:30:00Z'));
    let list = await summaries(world, '2025-06-10');
    expect(list.slice(0, 3).map((s) => s.period)).toEqual(['daily', 'daily', 'daily']);
    expect(of(list, 'daily', world.sites.Home!)[0]!.text).toMatch(
      /^Today at Home so far: three events, one with a person, one with a vehicle, and one with motion only\./,
    );
    expect(of(list, 'daily', null)[0]).toMatchObject({ counts: { person: 1 } });
    expect(of(list, 'daily', world.sites.Cabin!)[0]).toMatchObject({ counts: { animal: 1 } });

    await insertActivity(t, world, world.cameras.Porch!, {
      at: new Date('2025-06-10T09:20:00Z'),
      objects: [person()],
    });
    await t.modules.highlights.daily(new Date('2025-06-10T10:30:00Z'));
    list = await summaries(world, '2025-06-10');
    expect(list.filter((s) => s.period === 'daily')).toHaveLength(3);
    expect(of(list, 'daily', world.sites.Cabin!)[0]).toMatchObject({ counts: { animal: 1, person: 1 } });
  });

  it('crop the hero and the moments around what was detected, the centre where nothing was', async () => {
    await t.modules.highlights.daily(new Date('2025-06-10T09:30:00Z'));
    const list = await summaries(world, '2025-06-10');
    // Just above the person: x the middle of the box, y 15 % of its height above its top (HEAD_SHARE), here
    // above the picture's top edge for a person standing tall in it, so the crop keeps the top with the head.
    const shed = { x: 0.703, y: 0 };
    const [noSite] = of(list, 'daily', null);
    expect(noSite!.thumbnail_focus).toEqual(shed);
    expect(noSite!.notable_moments[0]!.thumbnail_focus).toEqual(shed);
    // The car was seen without a box: nothing to crop around.
    const [home] = of(list, 'daily', world.sites.Home!);
    const driveway = home!.notable_moments.find((m) => m.camera_name === 'Driveway');
    expect(driveway!.thumbnail_focus).toEqual({ x: 0.5, y: 0.5 });
  });

  it('finish the day once it has ended in the user’s zone', async () => {
    // 00:30 on 11 June in Berlin: 10 June is written whole, as yesterday.
    await t.modules.highlights.daily(new Date('2025-06-10T22:30:00Z'));
    const [home] = of(await summaries(world, '2025-06-10'), 'daily', world.sites.Home!);
    expect(home!.text).toMatch(/^Yesterday at Home: three events,/);
    expect(home!.period_end).toBe('2025-06-10T22:00:00.000Z');
  });

  it('drop a property whose events were deleted', async () => {
    await t.database.db.delete(activities).where(eq(activities.siteId, world.sites.Cabin!));
    await t.modules.highlights.daily(new Date('2025-06-10T22:30:00Z'));
    expect(of(await summaries(world, '2025-06-10'), 'daily', world.sites.Cabin!)).toEqual([]);
  });
});

describe('what highlights never do', () => {
  it('are written for nobody in amnesia mode', async () => {
    const amnesic = await userWithCameras(t, { '': ['Garden'] });
    await insertActivity(t, amnesic, amnesic.cameras.Garden!, {
      at: new Date('2025-06-10T07:10:00Z'),
      objects: [person()],
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/users/update-amnesia-mode',
      headers: amnesic.user.auth,
      payload: { is_amnesia_mode_enabled: true },
    });
    await t.modules.highlights.hourly(new Date('2025-06-10T08:05:00Z'));
    await t.modules.highlights.daily(new Date('2025-06-10T09:30:00Z'));
    expect(await summaries(amnesic, '2025-06-10')).toEqual([]);
  });

  it("show one user another's", async () => {
    const stranger = await userWithCameras(t, {});
    expect(await summaries(stranger, '2025-06-10')).toEqual([]);
  });

  it('run again without writing twice', async () => {
    const before = await summaries(world, '2025-06-10');
    await t.modules.highlights.hourly(new Date('2025-06-10T08:05:00Z'));
    const after = await summaries(world, '2025-06-10');
    expect(after.map((s) => [s.period, s.site_uuid, s.period_start])).toEqual(
      before.map((s) => [s.period, s.site_uuid, s.period_start]),
    );
  });
});

describe('noteworthy moments', () => {
  it('lead with the unusual ones, flagged with why, and never repeat the property in the sentence', async () => {
    const owner = await userWithCameras(t, { Home: ['Front Door'], Cabin: ['Porch'] });
    const known = await insertActivity(t, owner, owner.cameras['Front Door']!, {
      at: new Date('2025-06-16T12:10:00Z'),
      objects: [person()],
      recognised: [{ category: 'people', memory_uuid: ROSE, name: 'Rose' }],
      // As the analysis stores it for a household with two properties.
      description: 'Home: Rose walked up to the Front Door at 2:10 PM.',
    });
    const night = await insertActivity(t, owner, owner.cameras['Front Door']!, {
      at: new Date('2025-06-16T01:12:00Z'),
      objects: [person()],
    });
    await t.database.db
      .update(activities)
      .set({ routine: { unusual: { rule: 'never', kind: 'person', part: 'night', days: 30 } } })
      .where(eq(activities.id, night));
    await t.modules.highlights.daily(new Date('2025-06-16T13:00:00Z'));
    const [home] = of(await summaries(owner, '2025-06-16'), 'daily', owner.sites.Home!);
    expect(home!.notable_moments.map((m) => [m.activity_uuid, m.is_unusual, m.unusual_reason])).toEqual([
      [night, true, 'Nobody has been at the Front Door at night in the last 30 days.'],
      [known, false, null],
    ]);
    expect(home!.text).toBe(
      'Today at Home so far: two events with people. Recognised: Rose. ' +
        'Unusual: A person walked up to the Front Door at 3:12 AM. ' +
        'Nobody has been at the Front Door at night in the last 30 days. ' +
        'Notable: Rose walked up to the Front Door at 2:10 PM.',
    );
  });
});

describe('the schedules', () => {
  it('run the jobs through the queue with a pinned clock', async () => {
    const other = await userWithCameras(t, { '': ['Gate'] });
    await insertActivity(t, other, other.cameras.Gate!, {
      at: new Date('2025-06-12T07:10:00Z'),
      objects: [person()],
    });
    // The job's run of the writer, told apart from an hourly schedule's by its pinned clock.
    const runs = recordCalls(t.modules.highlights, 'daily');
    await t.jobs.send('highlights.daily', { at: '2025-06-12T08:00:00Z' });
    const run = await runs.find((at) => at?.toISOString() === '2025-06-12T08:00:00.000Z');
    runs.stop();
    await run.result;
    expect((await summaries(other, '2025-06-12')).length).toBe(1);
  });
});

describe('with an LLM', () => {
  it('writes the text from the same facts, and keeps the composed one when the model invents a name', async () => {
    const llm = await startFakeLlm();
    try {
      const log = createLogger('silent');
      const writer = createHighlightsWriter({
        repo: createHighlightsRepository(t.database.db),
        log,
        summarizer: createLlmSummarizer({
          llm: createOpenAiLlm({ baseUrl: llm.baseUrl, model: 'summary-test', timeoutMs: 5_000 }),
          log,
        }),
      });
      const owner = await userWithCameras(t, { Home: ['Door'] });
      await t.app.inject({
        method: 'POST',
        url: '/api/users/memories/people',
        headers: owner.user.auth,
        payload: { name: 'Otto' },
      });
      await insertActivity(t, owner, owner.cameras.Door!, {
        at: new Date('2025-06-14T07:10:00Z'),
        objects: [person()],
        recognised: [{ category: 'people', memory_uuid: ROSE, name: 'Rose' }],
      });

      llm.reply = () => ({ text: 'A calm morning at Home: Rose stopped by the door once.' });
      await writer.daily(new Date('2025-06-14T09:00:00Z'));
      const [daily] = of(await summaries(owner, '2025-06-14'), 'daily', owner.sites.Home!);
      expect(daily!.text).toBe('A calm morning at Home: Rose stopped by the door once.');
      const prompt = llm.received[0]!.body.messages[1]!.content as string;
      expect(prompt).toContain('Events: 1 (with a person: 1)');
      expect(prompt).toContain('Recognised: Rose');
      expect(prompt).toMatch(/Draft: Today at Home so far: one event with a person\./);

      llm.reply = () => ({ text: 'Rose and Otto stopped by.' });
      await writer.daily(new Date('2025-06-14T09:30:00Z'));
      const [kept] = of(await summaries(owner, '2025-06-14'), 'daily', owner.sites.Home!);
      expect(kept!.text).toMatch(/^Today at Home so far: one event with a person\./);
    } finally {
      await llm.close();
    }
  });
});
