import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../../../test/app.js';
import { DEFAULT_LIMITS } from '../../bootstrap.js';
import { smallJpeg, userWithLogin, type UploadLogin } from '../../modules/ingest/ingest.test-support.js';

/**
 * The per-address limit of sign-in and sign-up (AUTH_RATE_LIMIT_PER_MINUTE) is theirs alone: a camera
 * uploading over HTTP from the household's address, the sign-up status and token refreshes never count
 * against it, nor are they held back by it.
 */
describe('per-address limits of the auth calls', () => {
  let t: TestApp;
  let login: UploadLogin;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp({ limits: DEFAULT_LIMITS, analysis: false });
    login = (await userWithLogin(t)).login;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => t.close());

  const upload = async (jpeg: Buffer, i: number) => {
    const body = new FormData();
    body.append('camera_name', 'Front Door');
    body.append('file', new Blob([new Uint8Array(jpeg)]), `snap-${i}.jpg`);
    const auth = `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
    const res = await fetch(`${url}/api/ingest/events`, {
      method: 'POST',
      body,
      headers: { authorization: auth },
    });
    await res.arrayBuffer();
    return res.status;
  };

  const signIn = () =>
    fetch(`${url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('guess'), password: 'wrong-password' }),
    }).then(async (res) => (await res.arrayBuffer(), res.status));

  it('takes 120 HTTP uploads from one address and login in a minute, before and after 30 failed sign-ins', async () => {
    const jpeg = await smallJpeg();
    const before: number[] = [];
    for (let i = 0; i < 120; i++) before.push(await upload(jpeg, i));
    const accepted = before.findIndex((s) => s !== 202);
    console.info(
      `[limits] HTTP uploads from one address in a minute before a 429: ${accepted < 0 ? '120+' : accepted}`,
    );
    expect(before).toEqual(before.map(() => 202));

    const signIns: number[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.authPerIpPerMinute; i++) signIns.push(await signIn());
    expect(signIns).toEqual(signIns.map(() => 401));
    // The address's sign-in budget is spent: the next sign-in is refused, the camera is not.
    expect(await signIn()).toBe(429);

    const after: number[] = [];
    for (let i = 0; i < 10; i++) after.push(await upload(jpeg, 200 + i));
    expect(after).toEqual(after.map(() => 202));
  }, 120_000);

  it('never limits the sign-up status or token refreshes per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.authPerIpPerMinute * 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/signup/status' });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual(statuses.map(() => 200));
    const refreshes: number[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.authPerIpPerMinute * 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { refreshToken: 'not-a-token' },
      });
      refreshes.push(res.statusCode);
    }
    expect(refreshes).toEqual(refreshes.map(() => 401));
  });
});
