import { existsSync } from 'node:fs';
import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../../../test/app.js';
import { jpegWithLocation, png } from '../../../test/images.js';
import type { MemoryImageEvent } from '../../platform/events.js';
import { memoryCalls, startMemoriesApp } from './memories.test-support.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let removed: MemoryImageEvent[];
beforeAll(async () => {
  ({ t, alice, bob, removed } = await startMemoriesApp());
});
afterAll(async () => t.close());

const { call, create, upload, fileOf } = memoryCalls(() => t);

describe('memories: create, read, update, delete', () => {
  it('creates a memory of each category and lists them under people, vehicles, animals and general', async () => {
    const person = await create(alice, 'people', { name: ' Rose ', notes: 'My neighbour' });
    expect(person).toMatchObject({
      category: 'people',
      name: 'Rose',
      notes: 'My neighbour',
      images: [],
      expiration: null,
      expires_at: null,
      property_associations: [],
    });
    expect(person.memory_uuid).toMatch(/^[0-9a-f-]{36}$/);
    await create(alice, 'vehicles', { make: 'VW', model: 'Golf', year: 2019, color: 'blue', owner: 'Rose' });
    await create(alice, 'animals', { name: 'Rex', species: 'dog' });
    await create(alice, 'general', { text: 'Parcels go behind the bin' });

    const list = await call('GET', '/api/users/memories?force=true', alice);
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.is_amnesia_mode_enabled).toBe(false);
    expect(data.people.map((m: { name: string }) => m.name)).toContain('Rose');
    expect(data.vehicles[0]).toMatchObject({
      make: 'VW',
      model: 'Golf',
      year: 2019,
      color: 'blue',
      owner: 'Rose',
    });
    expect(data.animals[0]).toMatchObject({ name: 'Rex', species: 'dog' });
    expect(data.general[0]).toMatchObject({ category: 'other', text: 'Parcels go behind the bin' });

    const one = await call('GET', `/api/users/memories/people/${person.memory_uuid}`, alice);
    expect(one.json().data.name).toBe('Rose');
  });

  it('shows the amnesia switch of the profile in the list', async () => {
    await call('POST', '/api/users/update-amnesia-mode', alice, { is_amnesia_mode_enabled: true });
    expect((await call('GET', '/api/users/memories', alice)).json().data.is_amnesia_mode_enabled).toBe(true);
    await call('POST', '/api/users/update-amnesia-mode', alice, { is_amnesia_mode_enabled: false });
  });

  it('refuses an unknown category, a missing field, a foreign field and an unknown one with 400', async () => {
    const bad: [string, object, string][] = [
      ['cars', { name: 'x' }, 'category must be one of'],
      ['people', {}, 'name'],
      ['people', { name: '  ' }, 'name is required'],
      ['people', { name: 'A', make: 'VW' }, 'make: not a field of this category'],
      ['vehicles', {}, 'at least'],
      ['vehicles', { year: 1700 }, 'year'],
      ['other', { text: 'x', colour: 'red' }, 'colour'],
      ['people', { name: 'A', property_associations: ['not-a-uuid'] }, 'property_associations'],
    ];
    for (const [category, body, reason] of bad) {
      const res = await call('POST', `/api/users/memories/${category}`, alice, body);
      expect(res.statusCode, `${category} ${JSON.stringify(body)}`).toBe(400);
      const json = res.json();
      expect(json.message).toBe(MESSAGES.addMemoryFailed);
      expect(JSON.stringify(json.details)).toContain(reason);
    }
    expect((await call('GET', '/api/users/memories/cars', alice)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/memories?force=maybe', alice)).statusCode).toBe(400);
  });

  it('edits fields in place, and answers the memory', async () => {
    const m = await create(alice, 'animals', { name: 'Tom', species: 'cat' });
    const res = await call('POST', `/api/users/memories/animals/${m.memory_uuid}`, alice, { name: 'Tommy' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Tommy', species: 'cat' });
    const bad = await call('POST', `/api/users/memories/animals/${m.memory_uuid}`, alice, { name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MESSAGES.updateMemoryFailed);
  });

  it('keeps a short-term memory until its expiry in the user time zone, and makes it long-term', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const m = await create(alice, 'people', {
      name: 'Plumber',
      expiration: { date: `${year}-06-15`, hour: 5, minute: 30, period: 'PM' },
    });
    // The profile's time zone is Europe/Berlin (test/app.ts): 17:30 CEST is 15:30 UTC.
    expect(m.expires_at).toBe(`${year}-06-15T15:30:00.000Z`);
    expect(m.expiration).toEqual({ date: `${year}-06-15`, hour: 5, minute: 30, period: 'PM' });

    const kept = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      expiration: null,
    });
    expect(kept.json().data).toMatchObject({ expiration: null, expires_at: null, name: 'Plumber' });

    const past = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      expiration: { date: '2001-01-01', hour: 12, minute: 0, period: 'AM' },
    });
    expect(past.statusCode).toBe(400);
    expect(JSON.stringify(past.json().details)).toContain('future');
  });

  it('hides an expired memory at once and purges it, files included, in the background job', async () => {
    const m = await create(alice, 'people', {
      name: 'Courier',
      expiration: { date: `${new Date().getUTCFullYear() + 1}-01-01`, hour: 9, minute: 0, period: 'AM' },
    });
    const up = await upload(alice, 'people', m.memory_uuid, await jpegWithLocation());
    const file = fileOf(up.json().data.image.signedUrl);
    expect(existsSync(file)).toBe(true);
    await t.database.query(`update memories set expires_at = now() - interval '1 minute' where id = $1`, [
      m.memory_uuid,
    ]);

    const names = (await call('GET', '/api/users/memories', alice))
      .json()
      .data.people.map((p: { name: string }) => p.name);
    expect(names).not.toContain('Courier');
    expect((await call('GET', `/api/users/memories/people/${m.memory_uuid}`, alice)).statusCode).toBe(404);

    expect(await t.modules.memories.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.database.query('select id from memories where id = $1', [m.memory_uuid])).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect(removed.some((e) => e.memoryId === m.memory_uuid)).toBe(true);
  });

  it('links memories to the user own properties only, and all of them to a new property', async () => {
    const [{ id: aliceUserId }] = (await t.database.query<{ id: string }>(
      'select id from users where email = $1',
      [alice.email],
    )) as [{ id: string }];
    const [{ id: bobUserId }] = (await t.database.query<{ id: string }>(
      'select id from users where email = $1',
      [bob.email],
    )) as [{ id: string }];
    const [home] = await t.database.query<{ id: string }>(
      `insert into sites (user_id, name) values ($1, 'Home') returning id`,
      [aliceUserId],
    );
    const [other] = await t.database.query<{ id: string }>(
      `insert into sites (user_id, name) values ($1, 'Bob') returning id`,
      [bobUserId],
    );

    const m = await create(alice, 'people', { name: 'Gardener', property_associations: [home!.id] });
    expect(m.property_associations).toEqual([home!.id]);
    const foreign = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      property_associations: [other!.id],
    });
    expect(foreign.statusCode).toBe(400);
    const cleared = await call('POST', `/api/users/memories/people/${m.memory_uuid}`, alice, {
      property_associations: [],
    });
    expect(cleared.json().data.property_associations).toEqual([]);

    const [cabin] = await t.database.query<{ id: string }>(
      `insert into sites (user_id, name) values ($1, 'Cabin') returning id`,
      [aliceUserId],
    );
    const linked = await t.modules.memories.associateAllMemories(aliceUserId, cabin!.id);
    expect(linked).toBeGreaterThan(0);
    const all = (await call('GET', '/api/users/memories', alice)).json().data;
    for (const list of [all.people, all.vehicles, all.animals, all.general])
      for (const mem of list) expect(mem.property_associations).toContain(cabin!.id);
  });

  it("answers 404 for another user's memory on every call", async () => {
    const m = await create(alice, 'people', { name: 'Private' });
    const base = `/api/users/memories/people/${m.memory_uuid}`;
    expect((await call('GET', base, bob)).statusCode).toBe(404);
    expect((await call('POST', base, bob, { name: 'Hacked' })).statusCode).toBe(404);
    expect((await call('DELETE', base, bob)).statusCode).toBe(404);
    expect((await upload(bob, 'people', m.memory_uuid, await png())).statusCode).toBe(404);
    expect((await call('GET', '/api/users/memories', bob)).json().data.people).toEqual([]);
    // …and under the wrong category too.
    expect((await call('GET', `/api/users/memories/animals/${m.memory_uuid}`, alice)).statusCode).toBe(404);
    expect((await call('GET', base, alice)).json().data.name).toBe('Private');
  });
});
