import { createServer, type AddressInfo } from 'node:net';
import { REALTIME_HUB_PATH } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_MEDIA_SECRET, type TestApp } from '../../test/app.js';
import { createMediaSigner } from '../modules/media/media.signer.js';
import { smallJpeg, userIdOf, userWithLogin } from '../modules/ingest/ingest.test-support.js';
import type { CameraStateChange } from './events.js';
import { createLogger, scrubSecrets } from './logger.js';

/** A port nothing listens on: one a listener had a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * No secret reaches the log: a realistic session (sign-in, token refresh, a stream camera with a password,
 * camera uploads, signed media, the realtime hub with its access_token) runs with every log line captured
 * at the most detailed level, and none holds a signature, a token or a password.
 */
describe('the log of a session', () => {
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      log: createLogger('trace', { write: (line: string) => void lines.push(line) }),
      env: { CAMERA_NETWORKS: '127.0.0.0/8' },
      analysis: false,
    });
  }, 60_000);
  afterAll(async () => t.close());

  it('holds no signature, token or password', async () => {
    // Sign-up and sign-in, a wrong password, a token refresh.
    const user = await signUp(t);
    secrets.set('password', user.password);
    secrets.set('first ID token', user.idToken);
    secrets.set('first refresh token', user.refreshToken);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: user.email, password: user.password },
    });
    expect(signIn.statusCode).toBe(200);
    const session = signIn.json<{ idToken: string; refreshToken: string }>();
    secrets.set('ID token', session.idToken);
    secrets.set('refresh token', session.refreshToken);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: user.email, password: 'wrong-password-123' },
    });
    secrets.set('wrong password', 'wrong-password-123');
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { refreshToken: session.refreshToken },
    });
    secrets.set('rotated refresh token', refreshed.json<{ refreshToken: string }>().refreshToken);
    const auth = { authorization: `Bearer ${session.idToken}` };

    // A stream camera with a password in its URL: its configuration fails (nothing listens) and is logged.
    const cameraPassword = 'Cam-S3cret-9f8e7d';
    secrets.set('camera password', cameraPassword);
    const failed = new Promise<CameraStateChange>((resolve) =>
      t.deps.events.on('cameras.changed', ({ camera }) => {
        if (camera?.name === 'Porch' && camera.configuration_status === 'failed') resolve(camera);
      }),
    );
    const port = await closedPort();
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/users/cameras',
      headers: auth,
      payload: {
        name: 'Porch',
        connection: { type: 'rtsp', url: `rtsp://admin:${cameraPassword}@127.0.0.1:${port}/live` },
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    await failed;

    // Camera uploads over HTTP with the upload login (and once with a wrong one).
    const { user: uploader, login } = await userWithLogin(t);
    secrets.set('upload password', login.password);
    const basic = `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
    secrets.set('upload Authorization', basic.slice('Basic '.length));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const form = new FormData();
    form.append('camera_name', 'Garden');
    form.append('file', new Blob([new Uint8Array(await smallJpeg())]), 'snap.jpg');
    const uploaded = await fetch(`${base}/api/ingest/events`, {
      method: 'POST',
      body: form,
      headers: { authorization: basic },
    });
    expect(uploaded.status).toBe(202);
    await uploaded.arrayBuffer();
    const wrongLogin = `Basic ${Buffer.from(`${login.username}:not-the-password-42`).toString('base64')}`;
    secrets.set('wrong upload Authorization', wrongLogin.slice('Basic '.length));
    const refused = await fetch(`${base}/api/ingest/events`, {
      method: 'POST',
      body: form,
      headers: { authorization: wrongLogin },
    });
    expect(refused.status).toBe(401);

    const signer = createMediaSigner(TEST_MEDIA_SECRET, t.deps.config.PUBLIC_URL);
    // A picture of the user's, as processing stores them, through its signed URL (and a forged signature).
    const key = `users/${await userIdOf(t, uploader)}/photos/snap.jpg`;
    await t.deps.storage.put(key, await smallJpeg(), 'image/jpeg');
    const signed = new URL(signer.url(key, Math.floor(Date.now() / 1000) + 600));
    secrets.set('media signature', signed.searchParams.get('sig')!);
    const media = await fetch(`${base}${signed.pathname}${signed.search}`);
    expect(media.status).toBe(200);
    await media.arrayBuffer();
    const forgedSig = 'f0rged5ignature0123456789abcdef';
    secrets.set('forged signature', forgedSig);
    await (
      await fetch(`${base}${signed.pathname}?exp=${signed.searchParams.get('exp')}&sig=${forgedSig}`)
    ).arrayBuffer();

    // The realtime hub, whose token travels in the query.
    const negotiated = await t.app.inject({ method: 'POST', url: '/api/realtime/negotiate', headers: auth });
    expect(negotiated.statusCode, negotiated.body).toBe(200);
    const hubToken = negotiated.json<{ accessToken: string }>().accessToken;
    secrets.set('hub access token', hubToken);
    const hub = await fetch(
      `${base}${REALTIME_HUB_PATH}/negotiate?negotiateVersion=1&access_token=${hubToken}`,
      {
        method: 'POST',
      },
    );
    expect(hub.status).toBe(200);
    const badHubToken = 'bad-hub-token-0123456789abcdefghij';
    secrets.set('bad hub token', badHubToken);
    await (
      await fetch(`${base}${REALTIME_HUB_PATH}/negotiate?access_token=${badHubToken}`, { method: 'POST' })
    ).arrayBuffer();
    // A bearer token that is not valid.
    const forgedBearer = `${session.idToken.slice(0, -6)}AAAAAA`;
    secrets.set('forged bearer token', forgedBearer);
    await t.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${forgedBearer}` },
    });

    await t.modules.auth.resetsSettled();
    const log = lines.join('');
    const found = [...secrets].filter(
      ([, value]) => log.includes(value) || log.includes(encodeURIComponent(value)),
    );
    expect(found.map(([name]) => name)).toEqual([]);
    // The capture saw the calls themselves: the request lines are there, their secrets are not.
    expect(log).toContain('/api/ingest/events');
    expect(log).toMatch(/\/media\/users\/[^"]+sig=\[redacted\]/);
    expect(log).toContain(`${REALTIME_HUB_PATH}/negotiate`);
    expect(log).toContain('stream camera not configured');
  }, 120_000);
});

describe('scrubbing a log line', () => {
  it('removes signatures, URL passwords and Authorization headers, and cuts tokens to 8 characters', () => {
    const line = JSON.stringify({
      msg: 'GET http://h/media/a.jpg?exp=1&sig=0123456789abcdef failed; rtsp://cam:pw-123@10.0.0.2/live',
      url: '/api/realtime/hub?id=1&access_token=abcdefghijklmnopqrstuvwxyz',
      headers: { Authorization: 'Basic Y2FtOnBhc3M=' },
      s3: 'https://b.s3/k?X-Amz-Credential=AKIA123&X-Amz-Signature=deadbeefdeadbeef',
      token: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl',
    });
    // A mailed link in outbox mode stays whole: a local user finishes sign-up with it.
    const outbox = JSON.stringify({ links: ['http://h/verify-email?code=abcdefghijklmnopqrstuvwxyz'] });
    expect(scrubSecrets(outbox)).toBe(outbox);
    expect(JSON.parse(scrubSecrets(line))).toEqual({
      msg: 'GET http://h/media/a.jpg?exp=1&sig=[redacted] failed; rtsp://cam:[redacted]@10.0.0.2/live',
      url: '/api/realtime/hub?id=1&access_token=abcdefgh…',
      headers: { Authorization: '[redacted]' },
      s3: 'https://b.s3/k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]',
      token: 'eyJhbGci…',
    });
  });
});
