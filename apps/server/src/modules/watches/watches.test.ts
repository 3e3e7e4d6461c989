import type { ChatMessage } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { recordCalls, stateReached } from '../../../test/calls.js';
import { fcmRegistrationToken, startFakeFcm, type FakeFcm } from '../../../test/fake-push-services.js';
import { startFakeTwilio } from '../../../test/fake-twilio.js';
import { activities, watches, type ActivityObject } from '../../platform/db/schema.js';
import { mediaFingerprint } from '../analysis/analysis.service.js';
import {
  ask,
  car,
  dog,
  insertActivity,
  minutesAgo,
  person,
  userWithCameras,
  type Camera,
  type World,
} from '../assistant/assistant.test-support.js';
import { MAX_ACTIVE_WATCHES } from './watches.module.js';

let t: TestApp;
let fcm: FakeFcm;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let notified: ReturnType<typeof recordCalls<TestApp['modules']['notifications'], 'notify'>>;

beforeAll(async () => {
  [fcm, twilio] = await Promise.all([startFakeFcm(), startFakeTwilio()]);
  t = await createTestApp({
    env: {
      FCM_PROJECT_ID: fcm.projectId,
      FCM_CLIENT_EMAIL: fcm.account.clientEmail,
      FCM_PRIVATE_KEY: fcm.account.privateKey.replace(/\n/g, '\\n'),
      FCM_TOKEN_URL: fcm.tokenUrl,
      FCM_BASE_URL: fcm.baseUrl,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_MESSAGING_SERVICE_SID: 'MG42',
      TWILIO_BASE_URL: twilio.baseUrl,
    },
  });
  notified = recordCalls(t.modules.notifications, 'notify');
});
afterAll(async () => {
  notified.stop();
  await t.close();
  await Promise.all([fcm.close(), twilio.close()]);
});

/** A household with two properties and a phone that receives pushes (FCM); texts go to its number. */
async function household(): Promise<World & { token: string }> {
  const world = await userWithCameras(t, { Home: ['Front Door', 'Driveway'], Cabin: ['Cabin Porch'] });
  const token = fcmRegistrationToken();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/push-notification-token',
    headers: world.user.auth,
    payload: { token, platform: 'android' },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return { ...world, token };
}

/** The watch alerts a user was sent (through `notify`), in order. */
const watchAlerts = (userId: string) =>
  notified.calls
    .map((c) => c.args)
    .flatMap(([uid, n]) =>
      uid === userId && n.kind === 'activity_alert' && n.body.startsWith('You asked me') ? [n] : [],
    );

/**
 * An event as the pipeline leaves it after analysis, put through `analysis.analyse` (the stored analysis is
 * reused, so nothing is looked at again); resolves once the watches have been told of it.
 */
async function analysed(
  world: World,
  camera: Camera,
  fields: {
    at?: Date;
    objects: ActivityObject[];
    description: string;
    recognised?: { memory_uuid: string; name: string }[];
  },
): Promise<string> {
  const id = await insertActivity(t, world, camera, {
    at: fields.at ?? new Date(),
    objects: fields.objects,
    description: fields.description,
    recognised: (fields.recognised ?? []).map((r) => ({ category: 'animals', ...r })),
  });
  return analyseAgain(id);
}

async function analyseAgain(id: string): Promise<string> {
  const [row] = await t.database.db.select().from(activities).where(eq(activities.id, id));
  await t.database.db
    .update(activities)
    .set({ analysedMedia: mediaFingerprint(row!) })
    .where(eq(activities.id, id));
  const told = recordCalls(t.modules.watches, 'activityAnalysed');
  try {
    await t.jobs.send('analysis.analyse', { activityId: id });
    await (
      await told.find((ctx) => ctx.activity.id === id)
    ).result;
  } finally {
    told.stop();
  }
  return id;
}

async function history(world: World): Promise<ChatMessage[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/users/conversation-history?page=1&pageSize=50',
    headers: world.user.auth,
  });
  return res.json<{ data: ChatMessage[] }>().data;
}

const CLOCK = String.raw`\d{1,2}:\d{2} (?:AM|PM)`;

describe('watch requests in the chat', () => {
  it('confirms a watch, lists it, alerts once by push and text with the picture, and ends it', async () => {
    const home = await household();
    const confirmed = await ask(
      t,
      home.user,
      'tell me when a car arrives in the driveway in the next two hours',
    );
    expect(confirmed.text).toMatch(
      new RegExp(
        `^OK — I'll tell you when a car shows up in the Driveway until (?:tomorrow at )?${CLOCK}\\.$`,
      ),
    );
    expect((await ask(t, home.user, 'what are you watching for?')).text).toMatch(
      new RegExp(`^I'm watching for:\\n• a car in the Driveway, until (?:tomorrow at )?${CLOCK}$`),
    );

    // Someone at the door is not a car in the driveway.
    await analysed(home, home.cameras['Front Door']!, { objects: [person()], description: 'Someone came.' });
    expect(watchAlerts(home.userId)).toEqual([]);

    const textsBefore = twilio.received.length;
    const arrival = await analysed(home, home.cameras.Driveway!, {
      objects: [car('white')],
      description: 'A white car pulled into the Driveway at 5:02 AM.',
    });
    const body = 'You asked me to watch the Driveway: a white car pulled into the Driveway at 5:02 AM.';
    expect(watchAlerts(home.userId)).toEqual([
      expect.objectContaining({
        activityUuid: arrival,
        title: 'Driveway',
        body,
        thumbnailUrl: expect.any(String),
      }),
    ]);
    const pushed = fcm.received.filter((p) => p.token === home.token && p.body === body);
    expect(pushed).toHaveLength(1);
    expect(pushed[0]!.data).toMatchObject({ notification_type: 'ACTIVITY_ALERT', activity_uuid: arrival });
    // One text: the event's own alert went out by text already, so the watch's alert is not texted again.
    expect(twilio.received.filter((s) => s.Body === `Driveway: ${body}`)).toEqual([]);
    expect(twilio.received.length - textsBefore).toBe(1);
    const posted = (await history(home)).find((m) => m.text === body);
    expect(posted?.source_activity_uuid_list).toEqual([arrival]);
    expect(posted?.videos?.[0]?.activity_uuid).toBe(arrival);

    // The same event analysed again, and a second car: the watch has done its job.
    await analyseAgain(arrival);
    await analysed(home, home.cameras.Driveway!, { objects: [car()], description: 'A car.' });
    expect(watchAlerts(home.userId)).toHaveLength(1);
    expect((await history(home)).filter((m) => m.text === body)).toHaveLength(1);
    expect((await ask(t, home.user, 'what are you watching for?')).text).toMatch(
      /^I'm not watching for anything right now/,
    );
  });

  it('alerts every time by text when asked "every time … text me", never texting one event twice, and keeps watching', async () => {
    const home = await household();
    const confirmed = await ask(t, home.user, 'every time someone is at the door, text me');
    expect(confirmed.text).toMatch(
      /^OK — I'll text you every time someone shows up at the Front Door until tomorrow at .*You didn't say for how long, so I'll watch for the next 24 hours\.$/,
    );
    const textsBefore = twilio.received.length;
    const first = await analysed(home, home.cameras['Front Door']!, {
      objects: [person()],
      description: 'Someone walked up to the Front Door at 9:00 AM.',
    });
    const second = await analysed(home, home.cameras['Front Door']!, {
      objects: [person(), person()],
      description: 'Two people walked up to the Front Door at 9:05 AM.',
    });
    const alerts = watchAlerts(home.userId);
    expect(alerts.map((a) => a.activityUuid)).toEqual([first, second]);
    expect(alerts.every((a) => a.channels?.join() === 'sms')).toBe(true);
    // Each event texted once: by its own alert, or (joined to the first one's alert) by the watch.
    expect(twilio.received.length - textsBefore).toBe(2);
    expect(alerts[0]!.skip).toEqual(['sms']);
    expect((await ask(t, home.user, 'what are you watching for?')).text).toContain(
      '• someone at the Front Door, until',
    );
  });

  it('matches a named pet, and understands German', async () => {
    const home = await household();
    const bella = await t.app.inject({
      method: 'POST',
      url: '/api/users/memories/animals',
      headers: home.user.auth,
      payload: { name: 'Bella', species: 'dog' },
    });
    const bellaId = bella.json<{ data: { memory_uuid: string } }>().data.memory_uuid;
    expect((await ask(t, home.user, 'let me know when Bella is back')).text).toMatch(
      /^OK — I'll tell you when Bella shows up until tomorrow at/,
    );
    const german = await ask(t, home.user, 'Sag mir Bescheid, wenn heute Abend jemand an der Hütte ist');
    expect(german.text).toMatch(
      /^OK – ich sage dir Bescheid, wenn jemand im Objekt „Cabin“ auftaucht, (?:ab 18:00 Uhr )?bis /,
    );
    expect((await ask(t, home.user, 'Worauf achtest du?')).text).toMatch(
      /^Ich achte gerade auf:\n• Bella, bis .*\n• jemand im Objekt „Cabin“/,
    );

    const back = await analysed(home, home.cameras.Driveway!, {
      objects: [dog()],
      recognised: [{ memory_uuid: bellaId, name: 'Bella' }],
      description: 'Your dog Bella came into the Driveway.',
    });
    expect(watchAlerts(home.userId)).toEqual([
      expect.objectContaining({
        activityUuid: back,
        body: 'You asked me to watch for Bella: Your dog Bella came into the Driveway.',
      }),
    ]);
  });

  it('stops the watch just made on "stop", asks which when several are older, and stops one by place', async () => {
    const home = await household();
    await ask(t, home.user, 'tell me when a dog is in the backyard or the driveway');
    expect((await ask(t, home.user, 'stop')).text).toMatch(
      /^OK, I've stopped watching for a dog in the Driveway, until/,
    );
    expect((await ask(t, home.user, 'stop')).text).toMatch(/^I'm not watching for anything right now/);

    await ask(t, home.user, 'tell me when a car arrives in the driveway tonight');
    await ask(t, home.user, 'text me if anyone is at the cabin');
    // Made an hour ago: a bare "stop" no longer says which.
    await t.database.db
      .update(watches)
      .set({ createdAt: minutesAgo(60) })
      .where(eq(watches.userId, home.userId));
    const which = await ask(t, home.user, 'stop');
    expect(which.text).toMatch(
      /^Which one should I stop\? I'm watching for:\n• a car in the Driveway, .*\n• someone at Cabin, /,
    );
    expect((await ask(t, home.user, 'forget the driveway watch')).text).toMatch(
      /^OK, I've stopped watching for a car in the Driveway, /,
    );
    expect((await ask(t, home.user, 'hör auf')).text).toMatch(
      /^OK, ich achte nicht mehr auf jemand im Objekt „Cabin“/,
    );
    const rows = await t.database.db.select().from(watches).where(eq(watches.userId, home.userId));
    expect(rows.map((r) => r.endReason)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });

  it('refuses a time that is over, and more than the most watches at once', async () => {
    const home = await household();
    expect((await ask(t, home.user, 'tell me if someone is at the door yesterday')).text).toMatch(
      /^That time is already over/,
    );
    for (let i = 0; i < MAX_ACTIVE_WATCHES; i += 1)
      await t.modules.watches.create(home.userId, {
        kinds: ['person'],
        labels: [],
        memoryIds: [],
        cameraIds: [],
        siteIds: [],
        startsAt: new Date(),
        endsAt: new Date(Date.now() + 3_600_000),
        repeat: 'once',
        channel: 'usual',
        text: `watch ${i}`,
        language: 'en',
      });
    expect((await ask(t, home.user, 'tell me when a car arrives')).text).toMatch(
      new RegExp(`^You already have ${MAX_ACTIVE_WATCHES} watches running`),
    );
  });
});

describe('what a watch never alerts about', () => {
  it('events elsewhere, of another kind, or from before it began', async () => {
    const home = await household();
    await ask(t, home.user, 'tell me when a car arrives in the driveway');
    await analysed(home, home.cameras['Front Door']!, {
      objects: [car()],
      description: 'A car at the door.',
    });
    await analysed(home, home.cameras.Driveway!, {
      objects: [person()],
      description: 'Someone in the driveway.',
    });
    await analysed(home, home.cameras.Driveway!, {
      at: minutesAgo(30),
      objects: [car()],
      description: 'A car, half an hour ago.',
    });
    expect(watchAlerts(home.userId)).toEqual([]);
    expect((await ask(t, home.user, 'what are you watching for?')).text).toContain('• a car in the Driveway');
  });

  it('a muted camera', async () => {
    const home = await household();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/cameras',
      headers: home.user.auth,
      payload: { name: 'Garage', site_uuid: home.sites.Home, settings: { is_muted: true } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.query<{ id: string }>(
      "select id from cameras where user_id = $1 and name = 'Garage'",
      [home.userId],
    );
    await ask(t, home.user, 'let me know when anyone is at home');
    await analysed(
      home,
      { id: row!.id, name: 'Garage', siteId: home.sites.Home! },
      {
        objects: [person()],
        description: 'Someone in the Garage.',
      },
    );
    expect(watchAlerts(home.userId)).toEqual([]);
  });

  it('anything while private mode is on', async () => {
    const home = await household();
    await ask(t, home.user, 'let me know when anyone is at the front door');
    const id = await insertActivity(t, home, home.cameras['Front Door']!, {
      at: new Date(),
      objects: [person()],
      description: 'Someone at the Front Door.',
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/cameras/Front%20Door/settings',
      headers: home.user.auth,
      payload: { is_private_mode_enabled: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    // The analysis does not look at a private camera's events; and told of one, the watches do not match it.
    const ctx = await t.modules.activities.loadContext(id);
    expect(ctx?.camera.isPrivateModeEnabled).toBe(true);
    await t.modules.watches.activityAnalysed(ctx!, { alerted: false });
    expect(watchAlerts(home.userId)).toEqual([]);
    expect((await ask(t, home.user, 'what are you watching for?')).text).toContain(
      '• someone at the Front Door',
    );
  });

  it("another user's events", async () => {
    const mine = await household();
    const theirs = await household();
    await ask(t, theirs.user, 'every time anyone is seen, tell me');
    await analysed(mine, mine.cameras['Front Door']!, { objects: [person()], description: 'Someone came.' });
    expect(watchAlerts(theirs.userId)).toEqual([]);
  });
});

describe('expiry', () => {
  it('ends the watches whose time is up, by the job', async () => {
    const home = await household();
    await ask(t, home.user, 'tell me when a car arrives in the next hour');
    const [row] = await t.database.db.select().from(watches).where(eq(watches.userId, home.userId));
    await t.jobs.send('watches.expire', { at: new Date(row!.endsAt.getTime() + 1000).toISOString() });
    const ended = await stateReached(
      async () => (await t.database.db.select().from(watches).where(eq(watches.id, row!.id)))[0]!,
      (w) => w.endedAt !== null,
    );
    expect(ended.endReason).toBe('expired');
    expect((await ask(t, home.user, 'what are you watching for?')).text).toMatch(/^I'm not watching/);
  });
});
