import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { findNul } from './nul-guard.js';

describe('findNul', () => {
  it('names the first string holding a NUL, in nested objects and arrays', () => {
    expect(findNul({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toBe('b.c.1');
    expect(findNul('\u0000')).toBe('(value)');
    expect(findNul({ ['k\u0000']: 1 })).toBe('(key)');
    expect(findNul({ a: 'fine', n: 1, z: null })).toBeUndefined();
  });
});

describe('a NUL character anywhere in a request', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: user.auth });

  it('is a 400 naming the field, and changes nothing', async () => {
    const requests: [method: 'GET' | 'POST', url: string, body?: object][] = [
      ['POST', '/api/users/cameras', { name: 'Front\u0000Door' }],
      ['GET', '/api/users/cameras/%00'],
      ['GET', '/api/users/activities?camera_name=%00&page=1&pageSize=10'],
      ['POST', '/api/users/sites', { name: 'Lake\u0000house' }],
      ['POST', '/api/users/messages', { text: 'hello\u0000' }],
      ['POST', '/api/users/personal-info', { first_name: 'Ro\u0000se' }],
      ['POST', '/api/users/push-notification-token', { token: 'abc\u0000', platform: 'android' }],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'validation_failed',
        message: expect.stringContaining('must not contain the NUL character'),
      });
    }
    expect((await call('POST', '/api/users/cameras', { name: 'Front\u0000Door' })).json().message).toBe(
      'body name: must not contain the NUL character',
    );
    expect((await call('GET', '/api/users/cameras')).json().data).toEqual([]);
    expect((await call('GET', '/api/users/sites')).json().data).toEqual([]);
  });
});
