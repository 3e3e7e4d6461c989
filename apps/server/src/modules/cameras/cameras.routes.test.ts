import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const changes: string[] = [];
const renames: { from: string; to: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t);
  stranger = await signUp(t);
  t.deps.events?.on('cameras.changed', ({ userId }) => void changes.push(userId));
  t.deps.events?.on('camera.renamed', ({ from, to }) => void renames.push({ from, to }));
});
afterAll(async () => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who: TestUser | null,
  payload?: unknown,
) => t.app.inject({ method, url, payload: payload as object, headers: who ? who.auth : {} });

const add = (who: TestUser, payload: unknown) => call('POST', '/api/users/cameras', who, payload);
const list = async (who: TestUser) =>
  (await call('GET', '/api/users/cameras', who)).json<{ data: { name: string }[] }>().data;

describe('adding cameras', () => {
  it('adds a pending camera with default settings', async () => {
    const res = await add(owner, { name: '  Front Door ' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Front Door',
      site_uuid: null,
      removed_date_time_utc: null,
      last_activity_date_time_utc: null,
      configuration_status: 'pending',
      settings: {
        notes: null,
        is_private_mode_enabled: false,
        is_muted: false,
        is_facial_recognition_enabled: false,
        has_credentials: false,
      },
    });
  });

  it('refuses an empty name with 400 "Camera name is required"', async () => {
    for (const name of ['', '   ']) {
      const res = await add(owner, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: MESSAGES.cameraNameRequired,
        code: 'camera.name_required',
      });
    }
  });

  it('refuses a duplicate name, ignoring case, with 409 and the §5 text; other users may use it', async () => {
    const res = await add(owner, { name: 'FRONT door' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: MESSAGES.cameraNameTaken, code: 'camera.name_taken' });
    expect((await add(stranger, { name: 'Front Door' })).statusCode).toBe(201);
  });

  it('refuses unknown fields, long notes and a long name with 400, and adds nothing', async () => {
    const before = (await list(owner)).length;
    for (const payload of [
      { name: 'X', colour: 'red' },
      { name: 'Y', settings: { notes: 'n'.repeat(2001) } },
      { name: 'z'.repeat(101) },
    ]) {
      expect((await add(owner, payload)).statusCode).toBe(400);
    }
    expect(await list(owner)).toHaveLength(before);
  });

  it('needs a verified email', async () => {
    const unverified = await signUp(t, { verify: false });
    expect((await add(unverified, { name: 'Porch' })).statusCode).toBe(403);
    expect((await call('GET', '/api/users/cameras', null)).statusCode).toBe(401);
  });
});

describe('listing', () => {
  it('shows only the caller’s cameras, sorted by name, without camera logins', async () => {
    await add(owner, { name: 'backyard', settings: { username: 'admin', password: 's3cret-pass' } });
    await add(owner, { name: 'Attic' });
    const names = (await list(owner)).map((c) => c.name);
    expect(names).toEqual(['Attic', 'backyard', 'Front Door']);
    const res = await call('GET', '/api/users/cameras', owner);
    expect(res.body).not.toContain('s3cret-pass');
    expect(res.body).not.toContain('"username"');
    expect((await list(stranger)).map((c) => c.name)).toEqual(['Front Door']);
  });
});

describe('camera logins', () => {
  it('are shown decrypted to the owner only, and are not readable in the database', async () => {
    const detail = await call('GET', '/api/users/cameras/Backyard', owner);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.settings).toMatchObject({
      username: 'admin',
      password: 's3cret-pass',
      has_credentials: true,
    });
    expect((await call('GET', '/api/users/cameras/backyard', stranger)).statusCode).toBe(404);

    const rows = await t.database.query<{ credentials: string }>(
      `SELECT credentials FROM cameras WHERE lower(name) = 'backyard'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.credentials).not.toContain('s3cret');
    expect(rows[0]!.credentials).not.toContain('admin');
    expect(Buffer.from(rows[0]!.credentials.split(':')[3]!, 'base64url').toString('latin1')).not.toContain(
      's3cret',
    );
  });

  it('change one at a time and clear with null', async () => {
    await call('PUT', '/api/cameras/backyard/settings', owner, { password: 'n3w-pass' });
    let s = (await call('GET', '/api/users/cameras/backyard', owner)).json().data.settings;
    expect(s).toMatchObject({ username: 'admin', password: 'n3w-pass' });
    await call('PUT', '/api/cameras/backyard/settings', owner, { username: null, password: null });
    s = (await call('GET', '/api/users/cameras/backyard', owner)).json().data.settings;
    expect(s).toMatchObject({ username: null, password: null, has_credentials: false });
  });
});

describe('settings', () => {
  it('PUT /api/cameras/{name}/settings merges and answers {success, message}', async () => {
    changes.length = 0;
    const res = await call('PUT', '/api/cameras/Attic/settings', owner, {
      notes: 'Faces the stairs',
      is_muted: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Camera settings updated' });
    const again = await call('PUT', '/api/cameras/Attic/settings', owner, { is_private_mode_enabled: true });
    expect(again.json().data.settings).toMatchObject({
      notes: 'Faces the stairs',
      is_muted: true,
      is_private_mode_enabled: true,
    });
    expect(changes.length).toBeGreaterThanOrEqual(2);
  });

  it('update-camera merges settings and sets the configuration status', async () => {
    const res = await call('POST', '/api/users/update-camera', owner, {
      name: 'attic',
      settings: { is_muted: false },
      configuration_status: 'configured',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      configuration_status: 'configured',
      settings: { notes: 'Faces the stairs', is_muted: false, is_private_mode_enabled: true },
    });
  });

  it('refuses notes over 2,000 characters with the §8 text and changes nothing', async () => {
    const res = await call('PUT', '/api/cameras/Attic/settings', owner, { notes: 'x'.repeat(2001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.updateCameraSettingsFailed);
    const ok = await call('PUT', '/api/cameras/Attic/settings', owner, { notes: 'x'.repeat(2000) });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses per-camera facial recognition while the global setting is off', async () => {
    await call('PUT', '/api/users/settings', owner, { is_facial_recognition_enabled: false });
    const refused = await call('PUT', '/api/cameras/Attic/settings', owner, {
      is_facial_recognition_enabled: true,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'camera.facial_recognition_disabled' });
    expect(refused.json().message).toMatch(/facial recognition in your settings/);

    await call('PUT', '/api/users/settings', owner, { is_facial_recognition_enabled: true });
    const allowed = await call('PUT', '/api/cameras/Attic/settings', owner, {
      is_facial_recognition_enabled: true,
    });
    expect(allowed.json().data.settings.is_facial_recognition_enabled).toBe(true);
  });

  it('records when the owner consented to recognition on each camera and globally', async () => {
    await call('PUT', '/api/users/settings', owner, { is_facial_recognition_enabled: true });
    await call('PUT', '/api/cameras/Attic/settings', owner, { is_facial_recognition_enabled: true });
    const [row] = await t.database.query<{ camera: Date | null; global: Date | null }>(
      `select c.facial_recognition_consent_at as camera, u.facial_recognition_consent_at as global
         from cameras c join users u on u.id = c.user_id where c.name = 'Attic'`,
    );
    expect(row?.camera).toBeInstanceOf(Date);
    expect(row?.global).toBeInstanceOf(Date);
  });

  it('answers 404 for another user’s camera and changes nothing', async () => {
    const settings = await call('PUT', '/api/cameras/Attic/settings', stranger, { is_muted: true });
    expect(settings.statusCode).toBe(404);
    expect(settings.json()).toMatchObject({
      code: 'camera.not_found',
      message: MESSAGES.updateCameraSettingsFailed,
    });
    const update = await call('POST', '/api/users/update-camera', stranger, { name: 'Attic', settings: {} });
    expect(update.statusCode).toBe(404);
    const rename = await call('POST', '/api/users/update-camera-name', stranger, {
      current_name: 'Attic',
      new_name: 'Mine',
    });
    expect(rename.statusCode).toBe(404);
    expect((await list(owner)).map((c) => c.name)).toContain('Attic');
  });
});

describe('renaming', () => {
  it('keeps the camera (id, settings) under the new name and announces it', async () => {
    const before = (await call('GET', '/api/users/cameras/Attic', owner)).json().data;
    const res = await call('POST', '/api/users/update-camera-name', owner, {
      current_name: 'Attic',
      new_name: 'Loft',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      camera_uuid: before.camera_uuid,
      name: 'Loft',
      settings: { is_private_mode_enabled: true },
    });
    expect(renames).toContainEqual({ from: 'Attic', to: 'Loft' });
    expect((await call('GET', '/api/users/cameras/Attic', owner)).statusCode).toBe(404);
  });

  it('refuses a taken name (409), an empty one (400), and allows a change of case', async () => {
    const taken = await call('POST', '/api/users/update-camera-name', owner, {
      current_name: 'Loft',
      new_name: 'front door',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(MESSAGES.cameraNameTaken);
    const empty = await call('POST', '/api/users/update-camera-name', owner, {
      current_name: 'Loft',
      new_name: ' ',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MESSAGES.cameraNameRequired);
    const recased = await call('POST', '/api/users/update-camera-name', owner, {
      current_name: 'Loft',
      new_name: 'LOFT',
    });
    expect(recased.json().data.name).toBe('LOFT');
  });
});

describe('removal', () => {
  it('is soft: a removal date hides the camera; adding the name again brings it back fresh', async () => {
    await add(owner, { name: 'Garage', settings: { notes: 'old notes' } });
    const removed = await call('POST', '/api/users/update-camera', owner, {
      name: 'Garage',
      removed_date_time_utc: new Date().toISOString(),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.removed_date_time_utc).not.toBeNull();
    expect((await list(owner)).map((c) => c.name)).not.toContain('Garage');
    expect((await call('GET', '/api/users/cameras/Garage', owner)).statusCode).toBe(404);

    const again = await add(owner, { name: 'garage' });
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toMatchObject({
      camera_uuid: removed.json().data.camera_uuid,
      name: 'garage',
      removed_date_time_utc: null,
      settings: { notes: null },
    });
  });

  it('refuses a date that is not ISO 8601', async () => {
    const res = await call('POST', '/api/users/update-camera', owner, {
      name: 'garage',
      removed_date_time_utc: 'yesterday',
    });
    expect(res.statusCode).toBe(400);
    expect((await list(owner)).map((c) => c.name)).toContain('garage');
  });
});

describe('site association', () => {
  it('puts a camera into one of the caller’s properties and out again', async () => {
    const site = (await call('POST', '/api/users/sites', owner, { name: 'Home' })).json().data;
    const res = await call('POST', '/api/users/cameras/site-association', owner, {
      camera_name: 'garage',
      site_uuid: site.site_uuid,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.site_uuid).toBe(site.site_uuid);
    const out = await call('POST', '/api/users/cameras/site-association', owner, {
      camera_name: 'garage',
      site_uuid: null,
    });
    expect(out.json().data.site_uuid).toBeNull();
  });

  it('answers 404 for another user’s property or camera', async () => {
    const theirs = (await call('POST', '/api/users/sites', stranger, { name: 'Theirs' })).json().data;
    const res = await call('POST', '/api/users/cameras/site-association', owner, {
      camera_name: 'garage',
      site_uuid: theirs.site_uuid,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('site.not_found');
    const other = await call('POST', '/api/users/cameras/site-association', stranger, {
      camera_name: 'garage',
      site_uuid: theirs.site_uuid,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('camera.not_found');
  });
});

describe('account deletion', () => {
  it('removes the user’s cameras with the account', async () => {
    const leaving = await signUp(t);
    await add(leaving, { name: 'Porch' });
    const [row] = await t.database.query<{ user_id: string }>(
      `SELECT c.user_id FROM cameras c JOIN users u ON u.id = c.user_id WHERE u.email = $1`,
      [leaving.email],
    );
    expect(row).toBeDefined();
    expect((await call('DELETE', '/api/users', leaving)).statusCode).toBe(200);
    const left = await t.database.query(`SELECT 1 FROM cameras WHERE user_id = $1`, [row!.user_id]);
    expect(left).toHaveLength(0);
  });
});
