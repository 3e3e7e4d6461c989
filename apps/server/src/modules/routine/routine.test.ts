import type { ChatMessage } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.js';
import { activities, type ActivityObject, type RecognisedMemory } from '../../platform/db/schema.js';
import {
  addCamera,
  addPerson,
  aiServices,
  aiUser,
  call,
  car,
  descriptorOf,
  face,
  insertActivity,
  person,
  startAiApp,
  type AiTestUser,
} from '../analysis/analysis.test-support.js';

const ROSE = descriptorOf(1);
const scenes = {
  rose: { objects: [person()], faces: [face(descriptorOf(1, 0.3))] },
  stranger: { objects: [person()], faces: [face(descriptorOf(40))] },
  car: { objects: [car('white')] },
};
const DAY = 86_400_000;
/** Every household lives in Berlin (summer time, UTC+2); the judged events are on 1 June 2026. */
const JUNE_1 = Date.parse('2026-06-01T00:00:00Z');
/** 1 June 2026 at a Berlin wall-clock time. */
const berlin = (hour: number, minute = 0, daysLater = 0) =>
  new Date(JUNE_1 + daysLater * DAY + (hour - 2) * 3_600_000 + minute * 60_000);

let t: TestApp;
beforeAll(async () => {
  t = await startAiApp();
});
afterAll(async () => {
  await t?.close();
});

async function history(who: AiTestUser): Promise<ChatMessage[]> {
  const res = await call(t, who, 'GET', '/api/users/conversation-history?page=1&pageSize=50');
  return res.json<{ data: ChatMessage[] }>().data;
}

async function row(id: string) {
  const [found] = await t.database.db.select().from(activities).where(eq(activities.id, id));
  return found!;
}

/**
 * A household whose camera saw `past` on each of the `days` days before 1 June at `hour` (Berlin), already
 * analysed; then its new events are analysed as the job would.
 */
interface Past {
  days: number;
  hour: number;
  objects: ActivityObject[];
  known?: boolean;
  ephemeral?: boolean;
  weekdaysOnly?: boolean;
}

async function household(
  cameraName: string,
  past: Past,
  settings: { only_unusual_alerts?: boolean } = {},
  more: Past[] = [],
) {
  const who = await aiUser(t);
  const cameraId = await addCamera(t, who, cameraName, { is_facial_recognition_enabled: true, ...settings });
  const rose = await addPerson(t, who, 'Rose');
  const ai = aiServices(t, scenes);
  ai.faceExamples.examples.push({ memoryId: rose, name: 'Rose', descriptor: ROSE, negative: false });
  for (const p of [past, ...more]) await remember(p);
  async function remember(past: Past) {
    const recognised: RecognisedMemory[] = past.known
      ? [{ category: 'people', memory_uuid: rose, name: 'Rose' }]
      : [];
    for (let d = 1; d <= past.days; d++) {
      const at = berlin(past.hour, 0, -d);
      const weekday = at.getUTCDay();
      if (past.weekdaysOnly && (weekday === 0 || weekday === 6)) continue;
      await t.database.db.insert(activities).values({
        userId: who.userId,
        cameraId,
        cameraName,
        occurredAt: at,
        lastFileAt: at,
        mediaKind: 'image',
        objects: past.objects,
        recognised,
        analysedAt: at,
        ephemeralUntil: past.ephemeral ? new Date(at.getTime() + DAY) : null,
      });
    }
  }
  const event = async (scene: keyof typeof scenes, at: Date) => {
    const a = await insertActivity(t, { userId: who.userId, cameraId, cameraName, occurredAt: at, scene });
    await ai.analysis.analyseActivity(a.id);
    return row(a.id);
  };
  return { who, ai, event };
}

const visitor: ActivityObject = { kind: 'person', label: 'person', score: 0.9 };
const vehicle: ActivityObject = { kind: 'vehicle', label: 'car', score: 0.9, color: 'white' };

describe("each camera's routine", () => {
  it('finds a stranger at 3 AM unusual where nobody comes at night, and says why in the alert', async () => {
    const { who, ai, event } = await household('Porch', {
      days: 30,
      hour: 14,
      objects: [visitor],
      known: true,
    });
    const a = await event('stranger', berlin(3, 12));
    expect(a.routine).toEqual({ unusual: { rule: 'never', kind: 'person', part: 'night', days: 30 } });
    const [alert] = await history(who);
    expect(alert!.text.split('\n')).toEqual([
      'Unusual: nobody has been on the Porch at night in the last 30 days.',
      a.description,
    ]);
    expect(ai.notified[0]!.notification.body).toMatch(/^Unusual: nobody has been on the Porch at night/);
  });

  it('says it in German for a German profile', async () => {
    const { who, event } = await household('Haustür', {
      days: 30,
      hour: 14,
      objects: [visitor],
      known: true,
    });
    await call(t, who, 'POST', '/api/users/preferred-language', { preferred_language: 'de' });
    const a = await event('stranger', berlin(3, 12));
    const [alert] = await history(who);
    expect(alert!.text.split('\n')).toEqual([
      'Ungewöhnlich: In den letzten 30 Tagen war nachts niemand an der Haustür.',
      a.descriptionLocalized,
    ]);
  });

  it('finds a vehicle at night unusual in a driveway that only sees cars by day', async () => {
    const { who, event } = await household('Driveway', { days: 30, hour: 9, objects: [vehicle] });
    await event('car', berlin(2, 40));
    const [alert] = await history(who);
    expect(alert!.text).toMatch(
      /^Unusual: no vehicle has been in the Driveway at night in the last 30 days\.\n/,
    );
  });

  it('finds a stranger unusual where only people the household knows come at that time', async () => {
    const { event } = await household('Cabin', { days: 20, hour: 15, objects: [visitor], known: true });
    const a = await event('stranger', berlin(16, 5));
    expect(a.routine).toEqual({ unusual: { rule: 'stranger', kind: 'person', part: 'afternoon', days: 20 } });
    const known = await event('rose', berlin(15, 30, 1));
    expect(known.routine).toEqual({ unusual: null });
  });

  it('tells weekdays from weekends', async () => {
    // 1 June 2026 is a Monday; the weeks before saw people every afternoon, cars on weekday mornings only.
    const { event } = await household('Driveway', { days: 30, hour: 15, objects: [visitor] }, {}, [
      { days: 30, hour: 8, objects: [vehicle], weekdaysOnly: true },
    ]);
    const saturday = await event('car', berlin(8, 30, 5));
    expect(saturday.routine).toEqual({
      unusual: { rule: 'weekend', kind: 'vehicle', part: 'morning', days: 30 },
    });
    const tuesday = await event('car', berlin(8, 30, 1));
    expect(tuesday.routine).toEqual({ unusual: null });
  });

  it('finds a stranger at the cabin unusual while the people the household knows are seen at home', async () => {
    const who = await aiUser(t);
    const site = async (name: string) =>
      (await call(t, who, 'POST', '/api/users/sites', { name })).json<{ data: { site_uuid: string } }>().data
        .site_uuid;
    const [home, cabin] = [await site('Home'), await site('Cabin')];
    const camera = async (name: string, siteUuid: string) => {
      const id = await addCamera(t, who, name, { is_facial_recognition_enabled: true });
      const moved = await call(t, who, 'POST', '/api/users/update-camera', { name, site_uuid: siteUuid });
      expect(moved.statusCode, moved.body).toBe(200);
      return id;
    };
    const porch = await camera('Porch', cabin);
    const door = await camera('Front Door', home);
    const rose = await addPerson(t, who, 'Rose');
    const ai = aiServices(t, scenes);
    const seen = (cameraId: string, cameraName: string, siteId: string, at: Date, known: boolean) =>
      t.database.db.insert(activities).values({
        userId: who.userId,
        cameraId,
        cameraName,
        siteId,
        occurredAt: at,
        lastFileAt: at,
        mediaKind: 'image',
        objects: [visitor],
        recognised: known ? [{ category: 'people', memory_uuid: rose, name: 'Rose' }] : [],
        analysedAt: at,
      });
    // Strangers come by the cabin in the afternoon (walkers): usual on their own.
    for (let d = 1; d <= 30; d++) await seen(porch, 'Porch', cabin, berlin(15, 0, -d), false);
    await seen(door, 'Front Door', home, berlin(15, 0), true);
    const a = await insertActivity(t, {
      userId: who.userId,
      cameraId: porch,
      cameraName: 'Porch',
      occurredAt: berlin(15, 40),
      scene: 'stranger',
    });
    await t.database.db.update(activities).set({ siteId: cabin }).where(eq(activities.id, a.id));
    await ai.analysis.analyseActivity(a.id);
    expect((await row(a.id)).routine).toEqual({
      unusual: { rule: 'away', kind: 'person', part: 'afternoon', days: 29, elsewhere: 'Home' },
    });
    const [alert] = await history(who);
    expect(alert!.text.split('\n')[0]).toBe(
      "Unusual: someone you don't know was on the Porch while your people were seen at Home.",
    );
  });

  it('judges nothing until the camera has two weeks of history: a new household is not flooded', async () => {
    const { who, event } = await household('Porch', { days: 5, hour: 14, objects: [visitor], known: true });
    const a = await event('stranger', berlin(3, 12));
    expect(a.routine).toBeNull();
    const [alert] = await history(who);
    expect(alert!.text).toBe(a.description);
  });

  it('learns nothing from events kept only for their alert in amnesia mode, nor from people in the background', async () => {
    const amnesia = await household('Porch', { days: 30, hour: 3, objects: [visitor], ephemeral: true });
    expect((await amnesia.event('stranger', berlin(3, 12))).routine).toBeNull();
    const background = await household('Porch', {
      days: 30,
      hour: 3,
      objects: [{ ...visitor, background: true }, vehicle],
    });
    const a = await background.event('stranger', berlin(3, 12));
    expect(a.routine?.unusual).toMatchObject({ rule: 'never', kind: 'person', part: 'night' });
  });

  it('with "only unusual events" on, alerts about the unusual and records the usual without an alert', async () => {
    const { who, ai, event } = await household('Porch', {
      days: 30,
      hour: 14,
      objects: [visitor],
      known: true,
    });
    const bad = await call(t, who, 'POST', '/api/users/update-camera', {
      name: 'Porch',
      settings: { only_unusual_alerts: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const set = await call(t, who, 'POST', '/api/users/update-camera', {
      name: 'Porch',
      settings: { only_unusual_alerts: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<{ data: { settings: { only_unusual_alerts: boolean } } }>().data.settings).toMatchObject({
      only_unusual_alerts: true,
    });
    const usual = await event('rose', berlin(14, 20));
    expect(usual.routine).toEqual({ unusual: null });
    expect(usual.alertMessageId).toBeNull();
    expect(await history(who)).toEqual([]);
    const odd = await event('stranger', berlin(3, 12, 1));
    expect(odd.alertMessageId).not.toBeNull();
    expect(ai.notified).toHaveLength(1);
  });

  it('with "only unusual events" on, still alerts about everything while the routine is unknown', async () => {
    const { who, event } = await household(
      'Porch',
      { days: 3, hour: 14, objects: [visitor], known: true },
      { only_unusual_alerts: true },
    );
    const a = await event('rose', berlin(14, 20));
    expect(a.routine).toBeNull();
    expect(await history(who)).toHaveLength(1);
  });
});
