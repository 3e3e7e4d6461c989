import { readFileSync } from 'node:fs';
import type { Activity } from '@homesitter/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  afternoonTimeZone,
  createTestApp,
  signUp,
  TEST_ADMIN_TOKEN,
  type TestUser,
} from '../../../test/app.js';
import { stateReached } from '../../../test/calls.js';
import { hasFfmpeg, makeClip } from '../../../test/clips.js';
import { jpegWithLocation } from '../../../test/images.js';
import { users } from '../../platform/db/schema.js';
import {
  activitiesOf,
  analyseJobsFor,
  camerasOf,
  countersOf,
  fetchMedia,
  pathOf,
  plantUpload,
  startActivitiesApp,
  uploadRow,
  userIdOf,
  type ActivitiesTestApp,
} from './activities.test-support.js';

let a: ActivitiesTestApp;
let alice: TestUser;
let aliceId: string;
let snapshot: Buffer;
let clip: Buffer;
beforeAll(async () => {
  // What processing stores, before the AI has looked: its analysis would race the reads below.
  a = await startActivitiesApp({}, { analysis: false });
  alice = await signUp(a.t);
  aliceId = await userIdOf(a.t, alice);
  snapshot = await jpegWithLocation(1280, 720);
  // The picture does not matter here (size, duration, posters, HLS): ffmpeg's test pattern at a camera's size.
  clip = readFileSync(makeClip('h264', { seconds: 4, width: 768, height: 432 }));
});
afterAll(async () => a.t.close());

/** A distinct moment per test, far from the others' so their activities never group. */
let clock = Date.parse('2026-03-01T08:00:00Z');
const moment = () => {
  clock += 3_600_000;
  return clock;
};
const at = (base: number, seconds: number) => new Date(base + seconds * 1000);
const image = (camera: string, when: Date) => ({
  camera,
  bytes: snapshot,
  contentType: 'image/jpeg',
  at: when,
});
const video = (camera: string, when: Date) => ({ camera, bytes: clip, contentType: 'video/mp4', at: when });
const process = (id: string) => a.t.modules.activities.processUpload(id);
const getActivity = async (who: TestUser, id: string): Promise<Activity> => {
  const res = await a.t.app.inject({ method: 'GET', url: `/api/users/activities/${id}`, headers: who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Activity }>().data;
};

describe('processing a camera snapshot', () => {
  it('makes one activity with a thumbnail, the size and the full image, and takes the upload in', async () => {
    const t0 = moment();
    const up = await plantUpload(a, aliceId, image('Porch', at(t0, 0)));
    expect(await process(up.id)).toBe('created');

    const [row] = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Porch');
    expect(row).toMatchObject({ mediaKind: 'image', width: 1280, height: 720, videoKey: null, hlsKey: null });
    expect(row!.occurredAt.toISOString()).toBe(at(t0, 0).toISOString());
    expect(row!.thumbnailKey).toMatch(
      new RegExp(`^users/${aliceId}/activities/${row!.id}/thumb-\\w+\\.webp$`),
    );
    expect(row!.imageKeys).toHaveLength(1);

    expect(await uploadRow(a.t, up.id)).toMatchObject({ status: 'processed', activityId: row!.id });
    expect(await a.storage.exists(up.storageKey)).toBe(false);
    expect(await analyseJobsFor(a.t, row!.id)).toBe(1);
    expect(a.events.created).toContainEqual({ userId: aliceId, activityId: row!.id });
    // Billing is off by default: no limits, nothing counted.
    const [profile] = await a.t.database.db.select().from(users).where(eq(users.id, aliceId));
    expect(profile!.remainingFreeEvents).toBe(a.t.deps.config.FREE_EVENTS);

    const shown = await getActivity(alice, row!.id);
    expect(shown).toMatchObject({
      activity_uuid: row!.id,
      camera_name: 'Porch',
      media_kind: 'image',
      width: 1280,
      height: 720,
      aspect_ratio: 1.7778,
      video_url: null,
      hls_url: null,
      duration_seconds: null,
      objects: [],
      recognised_memories: [],
      activity_description: null,
    });
    const thumb = await fetchMedia(a.t, shown.thumbnail_image_url);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(480);
    const full = await fetchMedia(a.t, shown.image_urls[0]);
    expect(full.rawPayload.equals(snapshot)).toBe(true);
  });

  it('registers a camera it does not know, by the name the upload gave', async () => {
    const before = a.events.camerasChanged.length;
    const up = await plantUpload(a, aliceId, image('  Garden Gate ', at(moment(), 0)));
    expect(await process(up.id)).toBe('created');
    const camera = (await camerasOf(a.t, aliceId)).find((c) => c.name === 'Garden Gate');
    expect(camera).toMatchObject({ removedAt: null });
    expect(camera!.lastActivityAt).not.toBeNull();
    expect(a.events.camerasChanged.length).toBeGreaterThan(before);
  });

  it('finds a known camera whatever the case of the uploaded name, and brings a removed one back', async () => {
    const t0 = moment();
    const first = await plantUpload(a, aliceId, image('Driveway', at(t0, 0)));
    await process(first.id);
    const [camera] = (await camerasOf(a.t, aliceId)).filter((c) => c.name === 'Driveway');
    const removed = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/update-camera',
      headers: alice.auth,
      payload: { name: 'Driveway', removed_date_time_utc: new Date().toISOString() },
    });
    expect(removed.statusCode, removed.body).toBe(200);

    const later = await plantUpload(a, aliceId, image('DRIVEWAY', at(t0, 60)));
    expect(await process(later.id)).toBe('created');
    const after = (await camerasOf(a.t, aliceId)).filter((c) => c.name.toLowerCase() === 'driveway');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: camera!.id, name: 'Driveway', removedAt: null });
    expect(after[0]!.lastActivityAt!.toISOString()).toBe(at(t0, 60).toISOString());
    const list = await a.t.app.inject({ method: 'GET', url: '/api/users/cameras', headers: alice.auth });
    expect(list.json().data.map((c: { name: string }) => c.name)).toContain('Driveway');
  });

  it('marks a file that is not an image as failed, keeps nothing and does not retry', async () => {
    const up = await plantUpload(a, aliceId, {
      camera: 'Broken',
      bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('truncated nonsense')]),
      contentType: 'image/jpeg',
      at: at(moment(), 0),
    });
    expect(await process(up.id)).toBe('failed');
    expect(await uploadRow(a.t, up.id)).toMatchObject({ status: 'failed', activityId: null });
    expect(await a.storage.exists(up.storageKey)).toBe(false);
    expect((await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Broken')).toEqual([]);
  });
});

describe.runIf(hasFfmpeg())('processing a camera clip', () => {
  it('makes a poster, reads size and duration, and streams it as HLS through signed URLs', async () => {
    const up = await plantUpload(a, aliceId, video('Hallway', at(moment(), 0)));
    expect(await process(up.id)).toBe('created');
    const [row] = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Hallway');
    const shown = await getActivity(alice, row!.id);
    expect(shown).toMatchObject({ media_kind: 'video', width: 768, height: 432, aspect_ratio: 1.7778 });
    expect(shown.processing_status).toBe('processed');
    expect(shown.duration_seconds).toBeGreaterThan(3);
    expect(shown.image_urls).toEqual([]);

    const poster = await fetchMedia(a.t, shown.thumbnail_image_url);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(poster.rawPayload).metadata()).width).toBe(640);

    const download = await fetchMedia(a.t, shown.video_url);
    expect(download.headers['content-type']).toBe('video/mp4');
    expect(download.rawPayload.equals(clip)).toBe(true);

    const playlist = await fetchMedia(a.t, shown.hls_url);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers['cache-control']).toBe('private, no-cache');
    const lines = playlist.body.split('\n');
    const init = /URI="([^"]+)"/.exec(playlist.body)?.[1];
    const segments = lines.filter((l) => l && !l.startsWith('#'));
    expect(segments.length).toBeGreaterThan(0);
    for (const url of [init!, ...segments]) {
      expect(url).toMatch(/^http:\/\/homesitter\.test\/media\/users\/.+\?exp=\d+&sig=/);
      const part = await fetchMedia(a.t, url);
      expect(part.rawPayload.length).toBeGreaterThan(0);
    }
    // The playlist URL is signed like any media URL: a changed signature is refused.
    const forged = await a.t.app.inject({
      method: 'GET',
      // Always a different first character (a fixed one equals the real one once in 64 runs).
      url: pathOf(shown.hls_url).replace(/sig=./, (s) => (s.endsWith('A') ? 'sig=B' : 'sig=A')),
    });
    expect(forged.statusCode).toBe(403);
  });
});

describe('grouping files into events', () => {
  it('puts files of one camera within 10 s into one activity, images first to last', async () => {
    const t0 = moment();
    const ids = [];
    for (const s of [0, 4, 9]) ids.push((await plantUpload(a, aliceId, image('Gate', at(t0, s)))).id);
    const outcomes = [];
    for (const id of ids) outcomes.push(await process(id));
    expect(outcomes).toEqual(['created', 'joined', 'joined']);
    const rows = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Gate');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.imageKeys).toHaveLength(3);
    expect(rows[0]!.lastFileAt.toISOString()).toBe(at(t0, 9).toISOString());
    expect(await analyseJobsFor(a.t, rows[0]!.id)).toBe(3);
    expect((await getActivity(alice, rows[0]!.id)).image_urls).toHaveLength(3);
  });

  it('starts a new activity when the next file comes 11 s after the last one', async () => {
    const t0 = moment();
    const first = await plantUpload(a, aliceId, image('Shed', at(t0, 0)));
    const second = await plantUpload(a, aliceId, image('Shed', at(t0, 11)));
    expect(await process(first.id)).toBe('created');
    expect(await process(second.id)).toBe('created');
    expect((await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Shed')).toHaveLength(2);
  });

  it('keeps cameras apart even within the same seconds', async () => {
    const t0 = moment();
    const one = await plantUpload(a, aliceId, image('North', at(t0, 0)));
    const two = await plantUpload(a, aliceId, image('South', at(t0, 1)));
    expect([await process(one.id), await process(two.id)]).toEqual(['created', 'created']);
  });

  it('groups files processed out of order, the event starting at the earliest', async () => {
    const t0 = moment();
    const late = await plantUpload(a, aliceId, image('Back', at(t0, 6)));
    const early = await plantUpload(a, aliceId, image('Back', at(t0, 0)));
    expect(await process(late.id)).toBe('created');
    expect(await process(early.id)).toBe('joined');
    const [row] = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Back');
    expect(row!.occurredAt.toISOString()).toBe(at(t0, 0).toISOString());
  });

  it.runIf(hasFfmpeg())('lets a clip become the video of the snapshot event it belongs to', async () => {
    const t0 = moment();
    const snap = await plantUpload(a, aliceId, image('Garage', at(t0, 0)));
    const film = await plantUpload(a, aliceId, video('Garage', at(t0, 3)));
    expect(await process(snap.id)).toBe('created');
    expect(await process(film.id)).toBe('joined');
    const rows = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Garage');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mediaKind: 'video', width: 768, height: 432 });
    expect(rows[0]!.videoKey).not.toBeNull();
    expect(rows[0]!.hlsKey).not.toBeNull();
    expect(rows[0]!.imageKeys).toHaveLength(1);
    expect(rows[0]!.thumbnailKey).toMatch(/thumb-\w+\.webp$/);
  });

  it('groups files of one camera processed at the same time into one activity', async () => {
    const t0 = moment();
    const ups = await Promise.all([0, 1, 2, 3].map((s) => plantUpload(a, aliceId, image('Busy', at(t0, s)))));
    const outcomes = await Promise.all(ups.map((u) => process(u.id)));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect((await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Busy')).toHaveLength(1);
  });
});

describe('rounds: uploads arriving together', () => {
  it('processes many files of several cameras at once: one activity per camera, one AI job per activity', async () => {
    const t0 = moment();
    const names = ['Round A', 'Round B', 'Round C'];
    const ups = await Promise.all(
      names.flatMap((camera) => [0, 2, 4, 6].map((s) => plantUpload(a, aliceId, image(camera, at(t0, s))))),
    );
    const createdBefore = a.events.created.length;
    const changedBefore = a.events.camerasChanged.length;
    const outcomes = await Promise.all(ups.map((u) => process(u.id)));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'joined')).toHaveLength(9);
    const rows = (await activitiesOf(a.t, aliceId)).filter((r) => names.includes(r.cameraName));
    expect(rows.map((r) => r.cameraName).sort()).toEqual(names);
    for (const row of rows) {
      expect(row.imageKeys).toHaveLength(4);
      expect(row.thumbnailKey).toMatch(/thumb-\w+\.webp$/);
      expect(row.occurredAt.toISOString()).toBe(at(t0, 0).toISOString());
      expect(row.lastFileAt.toISOString()).toBe(at(t0, 6).toISOString());
      // Every file of a round in its activity, then one look at the activity per round, not per file.
      const jobs = await analyseJobsFor(a.t, row.id);
      expect(jobs).toBeGreaterThanOrEqual(1);
      expect(jobs).toBeLessThanOrEqual(4);
      expect((await getActivity(alice, row.id)).image_urls).toHaveLength(4);
    }
    for (const up of ups) {
      expect(await uploadRow(a.t, up.id)).toMatchObject({ status: 'processed' });
      expect(await a.storage.exists(up.storageKey)).toBe(false);
    }
    const cams = (await camerasOf(a.t, aliceId)).filter((c) => names.includes(c.name));
    expect(cams.map((c) => c.lastActivityAt?.toISOString())).toEqual(
      names.map(() => at(t0, 6).toISOString()),
    );
    expect(a.events.created.length - createdBefore).toBe(3);
    expect(a.events.camerasChanged.length - changedBefore).toBeGreaterThanOrEqual(1);
  });

  it('fails a file that does not decode alone; the rest of its camera still make their activity', async () => {
    const t0 = moment();
    const broken = await plantUpload(a, aliceId, {
      camera: 'Round Broken',
      bytes: Buffer.from('not a picture at all'),
      contentType: 'image/jpeg',
      at: at(t0, 0),
    });
    const rest = await Promise.all(
      [1, 2, 3].map((s) => plantUpload(a, aliceId, image('Round Broken', at(t0, s)))),
    );
    const outcomes = await Promise.all([broken, ...rest].map((u) => process(u.id)));
    expect(outcomes[0]).toBe('failed');
    expect(outcomes.slice(1).sort()).toEqual(['created', 'joined', 'joined']);
    const [row, ...more] = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Round Broken');
    expect(more).toEqual([]);
    expect(row!.imageKeys).toHaveLength(3);
    expect(row!.thumbnailKey).not.toBeNull();
    expect(row!.occurredAt.toISOString()).toBe(at(t0, 1).toISOString());
    // Nothing written for the failed file or the first plan is left: every stored file is an activity's.
    const known = new Set((await activitiesOf(a.t, aliceId)).map((r) => r.id));
    for await (const f of a.storage.list(`users/${aliceId}/activities`))
      expect(known.has(f.key.split('/')[3]!), f.key).toBe(true);
    const files: string[] = [];
    for await (const f of a.storage.list(`users/${aliceId}/activities/${row!.id}`)) files.push(f.key);
    expect(files.sort()).toEqual([row!.thumbnailKey, ...row!.imageKeys].sort());
  });

  it.runIf(hasFfmpeg())(
    'puts a clip and the snapshots around it, arriving together, into one activity',
    async () => {
      const t0 = moment();
      const ups = [
        await plantUpload(a, aliceId, image('Round Clip', at(t0, 0))),
        await plantUpload(a, aliceId, video('Round Clip', at(t0, 2))),
        await plantUpload(a, aliceId, image('Round Clip', at(t0, 4))),
      ];
      const outcomes = await Promise.all(ups.map((u) => process(u.id)));
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
      const rows = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Round Clip');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ mediaKind: 'video' });
      expect(rows[0]!.hlsKey).not.toBeNull();
      expect(rows[0]!.imageKeys).toHaveLength(2);
    },
  );
});

describe('retried and duplicated jobs', () => {
  it('never makes a second activity from one upload', async () => {
    const up = await plantUpload(a, aliceId, image('Twice', at(moment(), 0)));
    expect(await process(up.id)).toBe('created');
    expect(await process(up.id)).toBe('done');
    const rows = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Twice');
    expect(rows).toHaveLength(1);
    expect(await analyseJobsFor(a.t, rows[0]!.id)).toBe(1);
  });

  it('lets only one of two simultaneous runs commit, and the other leaves no files behind', async () => {
    const up = await plantUpload(a, aliceId, image('Race', at(moment(), 0)));
    const outcomes = await Promise.all([process(up.id), process(up.id)]);
    expect(outcomes.sort()).toEqual(['created', 'done']);
    const rows = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Race');
    expect(rows).toHaveLength(1);
    const files: string[] = [];
    for await (const f of a.storage.list(`users/${aliceId}/activities/${rows[0]!.id}`)) files.push(f.key);
    expect(files.sort()).toEqual([rows[0]!.thumbnailKey, ...rows[0]!.imageKeys].sort());
  });

  it('makes one activity when two server instances run the same upload and group one camera at once', async () => {
    // A second instance on the same database and media folder: its own process, so only the database's
    // row locks keep the two apart.
    const other = await createTestApp({
      database: a.t.database,
      env: { DATA_DIR: a.t.deps.config.DATA_DIR },
    });
    try {
      const t0 = moment();
      const same = await plantUpload(a, aliceId, image('Twin', at(t0, 0)));
      const outcomes = await Promise.all([process(same.id), other.modules.activities.processUpload(same.id)]);
      expect(outcomes.sort()).toEqual(['created', 'done']);

      const burst = await Promise.all(
        [2, 3, 4, 5].map((s) => plantUpload(a, aliceId, image('Twin', at(t0, s)))),
      );
      const joined = await Promise.all(
        burst.map((u, i) => (i % 2 ? process(u.id) : other.modules.activities.processUpload(u.id))),
      );
      expect(joined).toEqual(['joined', 'joined', 'joined', 'joined']);
      const rows = (await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Twin');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.imageKeys).toHaveLength(5);
    } finally {
      await other.close();
    }
  });

  it('is what the activities.process-upload job runs', async () => {
    const up = await plantUpload(a, aliceId, image('Queued', at(moment(), 0)));
    await a.t.jobs.send('activities.process-upload', { uploadId: up.id });
    await stateReached(
      async () => (await uploadRow(a.t, up.id))?.status,
      (status) => status === 'processed',
    );
    expect((await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Queued')).toHaveLength(1);
  });
});

describe('amnesia mode', () => {
  it('records a new event only for its alert: out of history from the start, purged within a day', async () => {
    const carol = await signUp(a.t);
    const carolId = await userIdOf(a.t, carol);
    const on = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/update-amnesia-mode',
      headers: carol.auth,
      payload: { is_amnesia_mode_enabled: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    const up = await plantUpload(a, carolId, image('Gate', at(moment(), 0)));
    expect(await process(up.id)).toBe('created');
    const [row] = await activitiesOf(a.t, carolId);
    expect(row?.ephemeralUntil).toBeInstanceOf(Date);
    expect(row!.ephemeralUntil!.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    const list = await a.t.app.inject({ method: 'GET', url: '/api/users/activities', headers: carol.auth });
    expect(list.json().data).toEqual([]);
  });
});

describe('private mode keeps nothing', () => {
  it('drops every upload while global private mode is on: no activity, no camera, bytes deleted, counted', async () => {
    const bob = await signUp(a.t);
    const bobId = await userIdOf(a.t, bob);
    const on = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/update-global-privacy-mode',
      headers: bob.auth,
      payload: { is_global_privacy_mode_enabled: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    const up = await plantUpload(a, bobId, image('Private Porch', at(moment(), 0)));
    expect(await process(up.id)).toBe('dropped');
    expect(await uploadRow(a.t, up.id)).toMatchObject({ status: 'dropped', activityId: null });
    expect(await a.storage.exists(up.storageKey)).toBe(false);
    expect(await activitiesOf(a.t, bobId)).toEqual([]);
    expect(await camerasOf(a.t, bobId)).toEqual([]);
    expect(await countersOf(a.t, bobId)).toEqual([
      expect.objectContaining({ reason: 'private_mode', count: 1 }),
    ]);
  });

  it("drops uploads of a camera in private mode, without touching the camera's last activity", async () => {
    const add = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/cameras',
      headers: alice.auth,
      payload: { name: 'Bedroom', settings: { is_private_mode_enabled: true } },
    });
    expect(add.statusCode, add.body).toBe(201);
    const ups = [
      await plantUpload(a, aliceId, image('bedroom', at(moment(), 0))),
      await plantUpload(a, aliceId, video('Bedroom', at(clock, 2))),
    ];
    const before = (await countersOf(a.t, aliceId)).find((c) => c.reason === 'private_mode')?.count ?? 0;
    for (const up of ups) expect(await process(up.id)).toBe('dropped');
    for (const up of ups) expect(await a.storage.exists(up.storageKey)).toBe(false);
    expect((await activitiesOf(a.t, aliceId)).filter((r) => r.cameraName === 'Bedroom')).toEqual([]);
    expect((await camerasOf(a.t, aliceId)).find((c) => c.name === 'Bedroom')?.lastActivityAt).toBeNull();
    const after = (await countersOf(a.t, aliceId)).find((c) => c.reason === 'private_mode')?.count ?? 0;
    expect(after - before).toBe(2);
  });
});

describe("private mode's count of what it did not keep", () => {
  it("tells the camera's owner today's dropped events, files 10 s apart being one, and refreshes the list", async () => {
    // Where it is early afternoon, so the minutes before now are today there whenever this runs.
    const dave = await signUp(a.t, { timezone: afternoonTimeZone() });
    const daveId = await userIdOf(a.t, dave);
    const list = async () => {
      const res = await a.t.app.inject({ method: 'GET', url: '/api/users/cameras', headers: dave.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: { name: string; private_events_today: number }[] }>().data;
    };
    for (const name of ['Shed', 'Garden']) {
      const add = await a.t.app.inject({
        method: 'POST',
        url: '/api/users/cameras',
        headers: dave.auth,
        payload: { name },
      });
      expect(add.statusCode, add.body).toBe(201);
    }
    // Read once, so the list is cached: the drops must refresh it.
    expect((await list()).map((c) => c.private_events_today)).toEqual([0, 0]);
    const on = await a.t.app.inject({
      method: 'POST',
      url: '/api/users/update-global-privacy-mode',
      headers: dave.auth,
      payload: { is_global_privacy_mode_enabled: true },
    });
    expect(on.statusCode, on.body).toBe(200);

    const now = Date.now();
    const ups = [
      await plantUpload(a, daveId, image('shed', new Date(now - 60_000))),
      await plantUpload(a, daveId, video('Shed', new Date(now - 55_000))),
      await plantUpload(a, daveId, image('Shed', new Date(now - 20_000))),
      // Yesterday's (two days back) is not today's.
      await plantUpload(a, daveId, image('Shed', new Date(now - 2 * 86_400_000))),
    ];
    for (const up of ups) expect(await process(up.id)).toBe('dropped');

    expect(await list()).toEqual([
      expect.objectContaining({ name: 'Garden', private_events_today: 0 }),
      expect.objectContaining({ name: 'Shed', private_events_today: 2 }),
    ]);
  });
});

describe('a server whose media tools cannot run', () => {
  let b: ActivitiesTestApp;
  let carol: TestUser;
  let carolId: string;
  beforeAll(async () => {
    b = await startActivitiesApp(
      { FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' },
      { analysis: false },
    );
    carol = await signUp(b.t);
    carolId = await userIdOf(b.t, carol);
  });
  afterAll(async () => b.t.close());

  it('still makes the clip an activity, playable as sent and marked "processing unavailable"', async () => {
    const up = await plantUpload(b, carolId, video('Garage', at(moment(), 0)));
    expect(await b.t.modules.activities.processUpload(up.id)).toBe('created');
    expect(await uploadRow(b.t, up.id)).toMatchObject({ status: 'processed' });
    expect(await b.storage.exists(up.storageKey)).toBe(false);

    const [row] = await activitiesOf(b.t, carolId);
    const res = await b.t.app.inject({
      method: 'GET',
      url: `/api/users/activities/${row!.id}`,
      headers: carol.auth,
    });
    const shown = res.json<{ data: Activity }>().data;
    expect(shown).toMatchObject({
      media_kind: 'video',
      processing_status: 'unavailable',
      hls_url: null,
      thumbnail_image_url: null,
    });
    const download = await fetchMedia(b.t, shown.video_url);
    expect(download.headers['content-type']).toBe('video/mp4');
    expect(download.rawPayload.equals(clip)).toBe(true);
    expect(await analyseJobsFor(b.t, row!.id)).toBe(1);
  });

  it('says in /readyz which tool is missing, while staying ready for everything else', async () => {
    const res = await b.t.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{
      data: { status: string; media_tools: Record<string, { path: string; error: string | null }> };
    }>();
    expect(data.status).toBe('degraded');
    expect(data.media_tools.ffmpeg).toMatchObject({ path: '/nonexistent/ffmpeg' });
    expect(data.media_tools.ffmpeg!.error).toContain('was not found');
    expect(data.media_tools.ffprobe!.error).toContain('was not found');
  });
});
