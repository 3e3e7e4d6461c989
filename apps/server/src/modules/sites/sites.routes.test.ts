import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const changes: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t);
  stranger = await signUp(t);
  t.deps.events?.on('cameras.changed', ({ userId }) => void changes.push(userId));
});
afterAll(async () => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who: TestUser | null,
  payload?: unknown,
) => t.app.inject({ method, url, payload: payload as object, headers: who ? who.auth : {} });

const create = async (who: TestUser, name: string) =>
  (await call('POST', '/api/users/sites', who, { name })).json<{ data: { site_uuid: string } }>().data;
const names = async (who: TestUser) =>
  (await call('GET', '/api/users/sites', who)).json<{ data: { name: string }[] }>().data.map((s) => s.name);

describe('properties', () => {
  it('are created, listed by name (ignoring case) and only to their owner', async () => {
    changes.length = 0;
    const res = await call('POST', '/api/users/sites', owner, { name: ' Lake house ' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Lake house', removed_at: null });
    await create(owner, 'apartment');
    await create(owner, 'Beach hut');
    expect(await names(owner)).toEqual(['apartment', 'Beach hut', 'Lake house']);
    expect(await names(stranger)).toEqual([]);
    expect(changes.length).toBe(3);
  });

  it('refuse an empty or too long name and unknown fields with 400', async () => {
    for (const payload of [{ name: '  ' }, { name: 'x'.repeat(101) }, { name: 'A', color: 'red' }, {}]) {
      expect((await call('POST', '/api/users/sites', owner, payload)).statusCode).toBe(400);
    }
    expect(await names(owner)).toHaveLength(3);
  });

  it('are renamed; another user’s answers 404 and keeps its name', async () => {
    const site = await create(owner, 'Cabin');
    const res = await call('PUT', `/api/users/sites/${site.site_uuid}`, owner, { name: 'Mountain cabin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('Mountain cabin');
    const theirs = await call('PUT', `/api/users/sites/${site.site_uuid}`, stranger, { name: 'Stolen' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('site.not_found');
    expect(await names(owner)).toContain('Mountain cabin');
    expect((await call('PUT', '/api/users/sites/not-a-uuid', owner, { name: 'X' })).statusCode).toBe(400);
  });

  it('are deleted softly and leave their cameras without a property', async () => {
    const site = await create(owner, 'Old office');
    await call('POST', '/api/users/cameras', owner, { name: 'Desk', site_uuid: site.site_uuid });
    expect(
      (await call('DELETE', `/api/users/sites/${site.site_uuid}`, stranger)).statusCode,
      'another user',
    ).toBe(404);

    const res = await call('DELETE', `/api/users/sites/${site.site_uuid}`, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.removed_at).not.toBeNull();
    expect(await names(owner)).not.toContain('Old office');
    const cameras = (await call('GET', '/api/users/cameras', owner)).json().data;
    expect(cameras.find((c: { name: string }) => c.name === 'Desk').site_uuid).toBeNull();
    const [row] = await t.database.query<{ removed_at: Date | null }>(
      'SELECT removed_at FROM sites WHERE id = $1',
      [site.site_uuid],
    );
    expect(row?.removed_at).not.toBeNull();

    expect((await call('DELETE', `/api/users/sites/${site.site_uuid}`, owner)).statusCode).toBe(404);
    const assign = await call('POST', '/api/users/cameras/site-association', owner, {
      camera_name: 'Desk',
      site_uuid: site.site_uuid,
    });
    expect(assign.statusCode).toBe(404);
  });
});

describe('associate-all-memories', () => {
  it('links every memory of the caller to the property, once', async () => {
    const [user] = await t.database.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      owner.email,
    ]);
    for (const name of ['Anna', 'Ben']) {
      await t.database.query(`INSERT INTO memories (user_id, category, name) VALUES ($1, 'people', $2)`, [
        user!.id,
        name,
      ]);
    }
    const site = await create(owner, 'Associated');
    const url = `/api/users/sites/${site.site_uuid}/associate-all-memories`;
    const res = await call('POST', url, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ site_uuid: site.site_uuid, associated: 2 });
    expect((await call('POST', url, owner)).json().data.associated).toBe(0);
    const links = await t.database.query('SELECT 1 FROM memory_sites WHERE site_id = $1', [site.site_uuid]);
    expect(links).toHaveLength(2);
  });

  it('answers 404 with the §8 text for another user’s property, and links nothing', async () => {
    const site = await create(owner, 'Private');
    const res = await call('POST', `/api/users/sites/${site.site_uuid}/associate-all-memories`, stranger);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.associateMemoriesFailed);
    const links = await t.database.query('SELECT 1 FROM memory_sites WHERE site_id = $1', [site.site_uuid]);
    expect(links).toHaveLength(0);
  });
});
