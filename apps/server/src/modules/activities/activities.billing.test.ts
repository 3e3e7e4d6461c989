import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { jpegWithLocation } from '../../../test/images.js';
import { uploads, users } from '../../platform/db/schema.js';
import {
  activitiesOf,
  countersOf,
  plantUpload,
  setUser,
  startActivitiesApp,
  uploadRow,
  userIdOf,
  type ActivitiesTestApp,
} from './activities.test-support.js';

let a: ActivitiesTestApp;
let snapshot: Buffer;
beforeAll(async () => {
  a = await startActivitiesApp({ BILLING_ENABLED: 'true' });
  snapshot = await jpegWithLocation(320, 240);
});
afterAll(async () => a.t.close());

const process = (id: string) => a.t.modules.activities.processUpload(id);
const remaining = async (userId: string) =>
  (await a.t.database.db.select().from(users).where(eq(users.id, userId)))[0]?.remainingFreeEvents;
const base = Date.parse('2026-04-01T10:00:00Z');
const snap = (camera: string, seconds: number, from = base) => ({
  camera,
  bytes: snapshot,
  contentType: 'image/jpeg',
  at: new Date(from + seconds * 1000),
});

async function newUser(freeEvents: number, subscription: string | null = null) {
  const id = await userIdOf(a.t, await signUp(a.t));
  await setUser(a.t, id, { remainingFreeEvents: freeEvents, stripeSubscriptionStatus: subscription });
  return id;
}

describe('free events with billing enabled', () => {
  it('uses one free event per new activity, not per file', async () => {
    const id = await newUser(2);
    for (const s of [0, 3, 6])
      expect(await process((await plantUpload(a, id, snap('Yard', s))).id)).not.toBe('held');
    expect(await remaining(id)).toBe(1);
    await process((await plantUpload(a, id, snap('Yard', 60))).id);
    expect(await remaining(id)).toBe(0);
    expect(await activitiesOf(a.t, id)).toHaveLength(2);
  });

  it('holds a new event when none is left, keeps its bytes, counts it, and still groups files into the last one', async () => {
    const id = await newUser(1);
    expect(await process((await plantUpload(a, id, snap('Lane', 0))).id)).toBe('created');
    // Within 10 s of the event it already paid for: joins, free.
    expect(await process((await plantUpload(a, id, snap('Lane', 5))).id)).toBe('joined');
    const held = await plantUpload(a, id, snap('Lane', 40));
    expect(await process(held.id)).toBe('held');
    expect(await uploadRow(a.t, held.id)).toMatchObject({ status: 'held', activityId: null });
    expect(await a.storage.exists(held.storageKey)).toBe(true);
    expect(await activitiesOf(a.t, id)).toHaveLength(1);
    expect(await remaining(id)).toBe(0);
    expect(await countersOf(a.t, id)).toEqual([
      expect.objectContaining({ reason: 'no_free_events', count: 1 }),
    ]);
    // A retried job of a held upload does nothing more.
    expect(await process(held.id)).toBe('done');
  });

  it('processes an active subscriber’s events without using free events', async () => {
    const id = await newUser(0, 'active');
    expect(await process((await plantUpload(a, id, snap('Pool', 0))).id)).toBe('created');
    expect(await remaining(id)).toBe(0);
  });

  it('processes held uploads once a subscription starts (releaseHeld), not those older than 24 h', async () => {
    const id = await newUser(0);
    const recent = await plantUpload(a, id, snap('Barn', 0, Date.now() - 3_600_000));
    const stale = await plantUpload(a, id, snap('Barn', 0, Date.now() - 25 * 3_600_000));
    expect(await process(recent.id)).toBe('held');
    expect(await process(stale.id)).toBe('held');

    await setUser(a.t, id, { stripeSubscriptionStatus: 'active' });
    expect(await a.t.modules.activities.releaseHeld(id)).toBe(1);
    await stateReached(
      async () => (await uploadRow(a.t, recent.id))?.status,
      (status) => status === 'processed',
    );
    expect(await activitiesOf(a.t, id)).toHaveLength(1);
    expect((await uploadRow(a.t, stale.id))?.status).toBe('held');
  });

  it('deletes uploads held for more than 24 h (activities.purge-held), bytes and row', async () => {
    const id = await newUser(0);
    const stale = await plantUpload(a, id, snap('Silo', 0, Date.now() - 25 * 3_600_000));
    const fresh = await plantUpload(a, id, snap('Silo', 0, Date.now() - 3_600_000));
    for (const u of [stale, fresh]) expect(await process(u.id)).toBe('held');

    await a.t.jobs.send('activities.purge-held', {});
    // The row goes first, then the bytes: the job is done when both are gone.
    await stateReached(
      async () =>
        (await uploadRow(a.t, stale.id)) === undefined && !(await a.storage.exists(stale.storageKey)),
      (gone) => gone,
    );
    expect(await a.storage.exists(stale.storageKey)).toBe(false);
    expect((await uploadRow(a.t, fresh.id))?.status).toBe('held');
    expect(await a.storage.exists(fresh.storageKey)).toBe(true);
    const left = await a.t.database.db.select().from(uploads).where(eq(uploads.userId, id));
    expect(left.map((u) => u.id)).toEqual([fresh.id]);
  });
});
