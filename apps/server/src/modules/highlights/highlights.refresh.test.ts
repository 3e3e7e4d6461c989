import type { ActivitySummary } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afternoonTimeZone, createTestApp, type TestApp } from '../../../test/app.js';
import { recordCalls } from '../../../test/calls.js';
import type { FanoutMessage } from '../../adapters/fanout/fanout.js';
import { createLogger } from '../../platform/logger.js';
import type { SendOptions } from '../../platform/jobs.js';
import { localDate } from '../language/language.module.js';
import {
  insertActivity,
  person,
  car,
  userWithCameras,
  type World,
} from '../assistant/assistant.test-support.js';
import { createHighlightsRefresh } from './highlights.refresh.js';

/** A refresher whose queue and clock the test holds. */
function refresher(delaySeconds: number) {
  const sent: { name: string; data: unknown; options: SendOptions | undefined }[] = [];
  let clock = new Date('2025-06-10T07:00:00Z');
  const refresh = createHighlightsRefresh({
    jobs: {
      send: (name, data, options) => {
        sent.push({ name, data, options });
        return Promise.resolve();
      },
    },
    log: createLogger('silent'),
    delaySeconds,
    now: () => clock,
  });
  return {
    refresh,
    sent,
    advance: (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000)),
  };
}

describe("today's highlights keep up with the events", () => {
  it('queue one refresh per user for a burst of events, due after the delay', async () => {
    const { refresh, sent, advance } = refresher(30);
    await refresh.request('rose');
    advance(10);
    await refresh.request('rose');
    advance(19);
    await refresh.request('rose');
    await refresh.request('otto');
    expect(sent).toEqual([
      {
        name: 'highlights.refresh',
        data: { userId: 'rose', since: '2025-06-10T07:00:00.000Z' },
        options: { startAfterSeconds: 30 },
      },
      {
        name: 'highlights.refresh',
        data: { userId: 'otto', since: '2025-06-10T07:00:29.000Z' },
        options: { startAfterSeconds: 30 },
      },
    ]);
  });

  it('queue again for an event once the waiting run has started, or is overdue', async () => {
    const { refresh, sent, advance } = refresher(30);
    await refresh.request('rose');
    refresh.started('rose');
    await refresh.request('rose');
    expect(sent).toHaveLength(2);
    // That run went to another instance (or was lost): the next event asks again.
    advance(31);
    await refresh.request('rose');
    expect(sent).toHaveLength(3);
  });
});

describe('corrections and late analyses', () => {
  it("ask for a run from the changed activity's time, so its hour and day are rewritten", async () => {
    const { refresh, sent } = refresher(30);
    await refresh.request('rose', new Date('2025-06-10T05:12:00Z'));
    expect(sent).toEqual([
      {
        name: 'highlights.refresh',
        data: { userId: 'rose', since: '2025-06-10T05:12:00.000Z' },
        options: { startAfterSeconds: 30 },
      },
    ]);
  });
});

describe('the refresh on a running server', () => {
  let t: TestApp;
  let world: World;
  const summaries = async (date: string): Promise<ActivitySummary[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/users/activity-summaries?date=${date}`,
      headers: world.user.auth,
    });
    return res.json<{ data: ActivitySummary[] }>().data;
  };
  const pushedTo = (messages: { args: [FanoutMessage] }[], userId: string) =>
    messages.map((m) => m.args[0]).filter((m) => m.userId === userId && m.event === 'SummariesUpdated');

  beforeAll(async () => {
    t = await createTestApp({ env: { HIGHLIGHTS_REFRESH_DELAY_SECONDS: '2' } });
    world = await userWithCameras(t, { Home: ['Door'], '': ['Shed'] });
  });
  afterAll(() => t.close());

  it("rewrite today's summary once after a burst of new events, and tell the user's open apps", async () => {
    const at = new Date();
    const activityIds = [
      await insertActivity(t, world, world.cameras.Door!, { at, objects: [person()] }),
      await insertActivity(t, world, world.cameras.Door!, { at, objects: [car('red')] }),
      await insertActivity(t, world, world.cameras.Shed!, { at, objects: [person()] }),
    ];
    const sends = recordCalls(t.jobs, 'send');
    const runs = recordCalls(t.modules.highlights, 'refresh');
    const pushed = recordCalls(t.deps.fanout, 'publish');

    // Announced together, as a camera's burst is: one job, one run.
    await Promise.all(
      activityIds.map((activityId) =>
        t.deps.events.emit('activity.created', { userId: world.userId, activityId }),
      ),
    );
    expect(sends.calls.filter((c) => c.args[0] === 'highlights.refresh')).toHaveLength(1);
    await (
      await runs.find((userId) => userId === world.userId)
    ).result;
    const message = await pushed.find(
      (m) =>
        m.userId === world.userId &&
        m.event === 'SummariesUpdated' &&
        (m.payload as { period: string }).period === 'daily',
    );
    await message.result;
    sends.stop();
    runs.stop();
    pushed.stop();

    const date = localDate(at, 'Europe/Berlin');
    expect(message.args[0].payload).toEqual({ period: 'daily', date });
    // The hour in progress is written too, not left for the job at :05.
    const hourly = (await summaries(date)).filter((s) => s.period === 'hourly');
    expect(hourly.find((s) => s.site_uuid === world.sites.Home)).toMatchObject({
      counts: { person: 1, vehicle: 1 },
    });
    const daily = (await summaries(date)).filter((s) => s.period === 'daily');
    expect(daily.map((s) => [s.site_uuid, s.counts])).toEqual([
      [world.sites.Home, { person: 1, vehicle: 1 }],
      [null, { person: 1 }],
    ]);
    expect(runs.calls.filter((c) => c.args[0] === world.userId)).toHaveLength(1);
  });

  it('rewrite the hour and the day soon after a correction names who it was', async () => {
    const other = await userWithCameras(t, { '': ['Gate'] });
    const at = new Date();
    const id = await insertActivity(t, other, other.cameras.Gate!, { at, objects: [person()] });
    const runs = recordCalls(t.modules.highlights, 'refresh');
    // What a chat correction ("that was Barack") writes through the activities module.
    await t.modules.activities.updateRecognition(other.userId, id, {
      recognised: [
        { category: 'people', memory_uuid: '4f1b8f0e-7a4c-4a53-9d0e-0c2b5b1f7a10', name: 'Barack' },
      ],
      description: 'Barack walked up to the Gate.',
      descriptionLocalized: null,
    });
    await (
      await runs.find((userId) => userId === other.userId)
    ).result;
    runs.stop();
    const list = (
      await t.app.inject({
        method: 'GET',
        url: `/api/users/activity-summaries?date=${localDate(at, 'Europe/Berlin')}`,
        headers: other.user.auth,
      })
    ).json<{ data: ActivitySummary[] }>().data;
    expect(list.map((s) => [s.period, s.recognised_names])).toEqual([
      ['daily', ['Barack']],
      ['hourly', ['Barack']],
    ]);
    expect(list[0]!.text).toContain('Notable: Barack walked up to the Gate.');
  });

  it("rewrite the last week's highlights in the language the owner switches to", async () => {
    const zone = afternoonTimeZone();
    const other = await userWithCameras(t, { '': ['Haustür'] }, zone);
    const at = new Date(Date.now() - 60 * 60_000);
    await insertActivity(t, other, other.cameras['Haustür']!, { at, objects: [person()] });
    await t.modules.highlights.daily(new Date());
    const read = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/users/activity-summaries?date=${localDate(at, zone)}`,
          headers: other.user.auth,
        })
      ).json<{ data: ActivitySummary[] }>().data;
    expect((await read())[0]!.text).toMatch(/^Today so far: one event with a person\. Notable: A person /);

    const runs = recordCalls(t.modules.highlights, 'rewriteRecent');
    const switched = await t.app.inject({
      method: 'POST',
      url: '/api/users/preferred-language',
      headers: other.user.auth,
      payload: { preferred_language: 'de' },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    await (
      await runs.find((userId) => userId === other.userId)
    ).result;
    runs.stop();
    const [daily] = await read();
    expect(daily!.text).toMatch(/^Heute bisher: ein Ereignis mit einer Person\. Aufgefallen: Eine Person /);
    expect(daily!.notable_moments[0]!.description).toMatch(/^Eine Person .*Haustür/);
  });

  it('finish yesterday too when the burst began before midnight', async () => {
    const other = await userWithCameras(t, { '': ['Gate'] });
    // 23:59:40 and 00:00:10 in Berlin.
    await insertActivity(t, other, other.cameras.Gate!, {
      at: new Date('2025-06-10T21:59:40Z'),
      objects: [person()],
    });
    await insertActivity(t, other, other.cameras.Gate!, { at: new Date('2025-06-10T22:00:10Z') });
    const pushed = recordCalls(t.deps.fanout, 'publish');
    const runs = recordCalls(t.modules.highlights, 'refresh');
    await t.jobs.send('highlights.refresh', {
      userId: other.userId,
      since: '2025-06-10T21:59:45Z',
      at: '2025-06-10T22:00:20Z',
    });
    await (
      await runs.find((userId) => userId === other.userId)
    ).result;
    runs.stop();
    pushed.stop();
    expect(pushedTo(pushed.calls, other.userId).map((m) => m.payload)).toEqual([
      { period: 'hourly', date: '2025-06-10' },
      { period: 'hourly', date: '2025-06-11' },
      { period: 'daily', date: '2025-06-10' },
      { period: 'daily', date: '2025-06-11' },
    ]);
    const read = async (date: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/users/activity-summaries?date=${date}`,
          headers: other.user.auth,
        })
      ).json<{ data: ActivitySummary[] }>().data;
    expect((await read('2025-06-10'))[0]).toMatchObject({ period: 'daily', counts: { person: 1 } });
    expect((await read('2025-06-11'))[0]).toMatchObject({ period: 'daily', counts: { other: 1 } });
  });

  it("tell the user's open apps when the hourly summaries are written", async () => {
    const other = await userWithCameras(t, { '': ['Porch'] });
    await insertActivity(t, other, other.cameras.Porch!, {
      at: new Date('2025-06-20T07:10:00Z'),
      objects: [person()],
    });
    const pushed = recordCalls(t.deps.fanout, 'publish');
    await t.modules.highlights.hourly(new Date('2025-06-20T08:05:00Z'));
    pushed.stop();
    expect(pushedTo(pushed.calls, other.userId).map((m) => m.payload)).toContainEqual({
      period: 'hourly',
      date: '2025-06-20',
    });
  });
});
