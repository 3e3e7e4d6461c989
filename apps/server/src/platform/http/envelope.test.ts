import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_ADMIN_TOKEN, type TestApp, type TestUser } from '../../../test/app.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t);
});
afterAll(async () => t.close());

describe('bad input never answers 5xx', () => {
  it('answers 400 for invalid JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/update-amnesia-mode',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: '{"is_amnesia_mode_enabled": tru',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'invalid_json' });
  });

  it('answers 400 for an empty JSON body where one is required', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });

  it('answers 400 for a missing body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in' });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });

  it('answers 413 for a body over 1 MB', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1_100_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: 'payload_too_large' });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'unsupported_media_type' });
  });

  it('answers 400 for wrong types and names the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email: 42, password: ['x'] },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('answers 404 JSON for an unknown /api route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({
      success: false,
      code: 'route_not_found',
      message: 'No route GET /api/nothing-here',
    });
  });
});

describe('health', () => {
  it('answers /healthz and /readyz while the database is up, with no detail for strangers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(anonymous.json()).toEqual({ success: true, data: { status: 'ready' } });
    expect(anonymous.body).not.toMatch(/ffmpeg|ffprobe|node_modules|\//);
    const wrongToken = await t.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { authorization: 'Bearer not-the-admin-token' },
    });
    expect(wrongToken.json()).toEqual({ success: true, data: { status: 'ready' } });
  });

  it('shows the media tools, their paths and versions to the operator in /readyz', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(res.json()).toEqual({
      success: true,
      data: {
        status: 'ready',
        // The ffmpeg and ffprobe that `npm ci` installs, with the versions they report.
        media_tools: {
          ffmpeg: { path: expect.stringContaining('ffmpeg'), version: expect.any(String), error: null },
          ffprobe: { path: expect.stringContaining('ffprobe'), version: expect.any(String), error: null },
        },
      },
    });
  });
});

describe('API reference', () => {
  it('serves the OpenAPI document and its reference page under /api/docs', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.json().paths['/api/users/profile'].get).toBeDefined();
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
  });
});
