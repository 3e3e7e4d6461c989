/**
 * The memories list is answered from a per-user cache on the embedded database (platform/read-cache.ts).
 * Each test reads the list first (so it is cached), changes something the list shows, and expects the very
 * next read to show it. On PostgreSQL the cache is off and the same tests simply read the database.
 */
import { join } from 'node:path';
import type { SerializedResponse } from '../../platform/http/serialized.js';
import type { Memories } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, TEST_MEDIA_SECRET, type TestUser } from '../../../test/app.js';
import { jpegWithLocation } from '../../../test/images.js';
import { createFsStorage } from '../../adapters/storage/fs.storage.js';
import { signingWindowSeconds } from '../../adapters/storage/storage.js';
import { createReadCache } from '../../platform/read-cache.js';
import { createMediaSigner } from '../media/media.signer.js';
import { createMemoriesRepository } from './memories.repository.js';
import { createMemoriesService } from './memories.service.js';
import { memoryCalls, startMemoriesApp, type MemoriesTestApp } from './memories.test-support.js';

/** The suite's PostgreSQL run (test/database.ts): no cache there. */
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);

let m: MemoriesTestApp;
beforeAll(async () => {
  m = await startMemoriesApp();
});
afterAll(async () => m.t.close());

const { call, create, upload } = memoryCalls(() => m.t);

async function listed(who: TestUser): Promise<Memories> {
  const res = await call('GET', '/api/users/memories', who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Memories }>().data;
}

const userIdOf = async (who: TestUser) =>
  (await m.t.database.query<{ id: string }>('select id from users where email = $1', [who.email]))[0]!.id;

describe('the cached memories list', () => {
  it.skipIf(ON_POSTGRES)(
    'is cached on the embedded database: a row written behind the service’s back is not seen',
    async () => {
      const who = m.bob;
      const before = await listed(who);
      await m.t.database.query(
        `insert into memories (user_id, category, name) values ($1, 'people', 'Hidden')`,
        [await userIdOf(who)],
      );
      expect(await listed(who)).toEqual(before);
    },
  );

  it('shows a memory as soon as it is created, each edit, and not after it is deleted', async () => {
    const who = m.alice;
    expect((await listed(who)).animals).toEqual([]);
    const pet = await create(who, 'animals', { name: 'Rex', species: 'dog' });
    expect((await listed(who)).animals.map((a) => a.name)).toEqual(['Rex']);

    await call('POST', `/api/users/memories/animals/${pet.memory_uuid}`, who, { name: 'Rexy' });
    expect((await listed(who)).animals.map((a) => a.name)).toEqual(['Rexy']);

    expect((await call('DELETE', `/api/users/memories/animals/${pet.memory_uuid}`, who)).statusCode).toBe(
      200,
    );
    expect((await listed(who)).animals).toEqual([]);
  });

  it('shows a photo as soon as it is added, and not after it is removed', async () => {
    const who = m.alice;
    const car = await create(who, 'vehicles', { make: 'VW', model: 'Golf', owner: 'Neighbour' });
    const inList = async () =>
      (await listed(who)).vehicles.find((v) => v.memory_uuid === car.memory_uuid)?.images ?? [];
    expect(await inList()).toEqual([]);

    const added = await upload(who, 'vehicles', car.memory_uuid, await jpegWithLocation(64, 48));
    expect(added.statusCode, added.body).toBe(201);
    const imageId = added.json<{ data: { image: { id: string } } }>().data.image.id;
    expect((await inList()).map((i) => i.id)).toEqual([imageId]);

    const gone = await call(
      'DELETE',
      `/api/users/memories/vehicles/${car.memory_uuid}/images/${imageId}`,
      who,
    );
    expect(gone.statusCode).toBe(200);
    expect(await inList()).toEqual([]);
  });

  it('shows the properties memories are linked to, also all at once from a new property', async () => {
    const who = m.alice;
    const note = await create(who, 'other', { text: 'Parcels go behind the bin' });
    const site = (await call('POST', '/api/users/sites', who, { name: 'Lake house' })).json<{
      data: { site_uuid: string };
    }>().data.site_uuid;
    const links = async () =>
      (await listed(who)).general.find((g) => g.memory_uuid === note.memory_uuid)?.property_associations;
    expect(await links()).toEqual([]);

    const res = await call('POST', `/api/users/sites/${site}/associate-all-memories`, who);
    expect(res.statusCode, res.body).toBe(200);
    expect(await links()).toEqual([site]);

    await call('POST', `/api/users/memories/other/${note.memory_uuid}`, who, { property_associations: [] });
    expect(await links()).toEqual([]);
  });

  it('follows the profile: the amnesia switch, and expiries shown in the new time zone', async () => {
    const who = m.alice;
    const year = new Date().getUTCFullYear() + 1;
    const guest = await create(who, 'people', {
      name: 'Guest',
      expiration: { date: `${year}-06-15`, hour: 5, minute: 30, period: 'PM' },
    });
    const shown = async () => (await listed(who)).people.find((p) => p.memory_uuid === guest.memory_uuid);
    expect((await shown())?.expiration).toEqual({ date: `${year}-06-15`, hour: 5, minute: 30, period: 'PM' });
    expect((await listed(who)).is_amnesia_mode_enabled).toBe(false);

    await call('POST', '/api/users/update-amnesia-mode', who, { is_amnesia_mode_enabled: true });
    expect((await listed(who)).is_amnesia_mode_enabled).toBe(true);
    await call('POST', '/api/users/update-amnesia-mode', who, { is_amnesia_mode_enabled: false });
    expect((await listed(who)).is_amnesia_mode_enabled).toBe(false);

    // 15:30 UTC is 17:30 in Berlin (summer) and 16:30 in London.
    const moved = await call('POST', '/api/users/personal-info', who, { timezone: 'Europe/London' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await shown())?.expiration).toEqual({ date: `${year}-06-15`, hour: 4, minute: 30, period: 'PM' });
  });

  it('is gone with the account: its token answers 401, nothing comes from the cache', async () => {
    const who = await signUp(m.t);
    await create(who, 'people', { name: 'Nanny' });
    expect((await listed(who)).people).toHaveLength(1);
    expect((await call('DELETE', '/api/users', who)).statusCode).toBe(200);
    expect((await call('GET', '/api/users/memories', who)).statusCode).toBe(401);
  });
});

describe('a cached memories list’s lifetime', () => {
  /** The memories service on the test app's database, with its own clock and an enabled cache. */
  async function serviceAt(clock: { ms: number }) {
    const t = m.t;
    const signer = createMediaSigner(TEST_MEDIA_SECRET, t.deps.config.PUBLIC_URL);
    const repo = createMemoriesRepository(t.database.db);
    const reads = { count: 0 };
    const service = createMemoriesService({
      repo: {
        ...repo,
        listLive: (userId, at) => {
          reads.count += 1;
          return repo.listLive(userId, at);
        },
      },
      storage: createFsStorage({ root: join(t.deps.config.DATA_DIR, 'media'), signUrl: signer.url }),
      events: t.deps.events,
      log: t.deps.log,
      urlTtlSeconds: 3600,
      photoLimit: 3,
      lists: createReadCache({ enabled: true, ttlMs: 24 * 3_600_000, now: () => clock.ms }),
      now: () => new Date(clock.ms),
    });
    return { service, reads };
  }

  const peopleIn = ({ json }: SerializedResponse) =>
    (JSON.parse(json.toString()) as { data: Memories }).data.people.map((p) => p.name);

  it('ends when the next short-term memory in it expires', async () => {
    const who = await signUp(m.t);
    // One minute before 09:00 in Berlin (CET, UTC+1) on 1 January next year.
    const year = new Date().getUTCFullYear() + 1;
    const clock = { ms: Date.UTC(year, 0, 1, 7, 59) };
    const { service, reads } = await serviceAt(clock);
    await service.create(who.uid, 'people', {
      name: 'Window cleaner',
      expiration: { date: `${year}-01-01`, hour: 9, minute: 0, period: 'AM' },
    });
    await service.create(who.uid, 'people', { name: 'Grandma' });

    expect(peopleIn(await service.listJson(who.uid)).sort()).toEqual(['Grandma', 'Window cleaner']);
    clock.ms += 59_000;
    expect(peopleIn(await service.listJson(who.uid)).sort()).toEqual(['Grandma', 'Window cleaner']);
    expect(reads.count).toBe(1);
    clock.ms += 1_000;
    expect(peopleIn(await service.listJson(who.uid))).toEqual(['Grandma']);
  });

  it('ends with its signed URLs’ window, so the links it hands out keep most of their lifetime', async () => {
    const who = await signUp(m.t);
    const clock = { ms: Date.now() };
    const { service, reads } = await serviceAt(clock);
    await service.create(who.uid, 'people', { name: 'Postman' });
    await service.listJson(who.uid);
    clock.ms += signingWindowSeconds(3600) * 1000 - 1;
    await service.listJson(who.uid);
    expect(reads.count).toBe(1);
    clock.ms += 1;
    await service.listJson(who.uid);
    expect(reads.count).toBe(2);
  });
});
