import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { loadSecretsKey, createSecretBox } from '../../platform/secrets.js';
import { createCamerasRepository } from './cameras.repository.js';
import { createUploadCredentialsService } from './upload-credentials.service.js';

let t: TestApp;
let user: TestUser;
let verify: (username: string, password: string) => Promise<string | null>;

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_URL: 'https://cams.example.net', FTP_PORT: '2121', INGEST_SMTP_PORT: '2525' },
  });
  user = await signUp(t);
  // The same service the ingest servers will use, over the same database and key.
  const service = createUploadCredentialsService({
    repo: createCamerasRepository(t.database.db),
    secrets: createSecretBox(loadSecretsKey(undefined, t.deps.config.DATA_DIR)),
    publicHost: 'cams.example.net',
    ftpPort: 2121,
    smtpPort: 2525,
  });
  verify = (u, p) => service.verifyUploadCredentials(u, p);
});
afterAll(async () => t.close());

const get = (who: TestUser) =>
  t.app.inject({ method: 'GET', url: '/api/users/camera-email-credentials', headers: who.auth });
const regenerate = (who: TestUser) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/generate-new-camera-email-credentials',
    headers: who.auth,
  });

describe('camera upload credentials', () => {
  it('are created on first call with hosts from PUBLIC_URL and the FTP and SMTP ports, then stay', async () => {
    const first = await get(user);
    expect(first.statusCode).toBe(200);
    const creds = first.json().data;
    expect(creds).toMatchObject({
      smtp_host: 'cams.example.net',
      smtp_port: 2525,
      ftp_host: 'cams.example.net',
      ftp_port: 2121,
    });
    expect(creds.username).toMatch(/^cam[a-z2-9]{10}$/);
    expect(creds.password.length).toBeGreaterThanOrEqual(20);
    expect(creds.email_address).toBe(`${creds.username}@cams.example.net`);
    expect((await get(user)).json().data).toEqual(creds);
  });

  it('are per user', async () => {
    const other = await signUp(t);
    const mine = (await get(user)).json().data;
    const theirs = (await get(other)).json().data;
    expect(theirs.username).not.toBe(mine.username);
  });

  it('verify for the ingest: right password → the user, anything else → null', async () => {
    const creds = (await get(user)).json().data;
    const userId = await verify(creds.username, creds.password);
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verify(creds.username, 'wrong-password')).toBeNull();
    expect(await verify('camnobody00000', creds.password)).toBeNull();
  });

  it('regenerating keeps the username and invalidates the old password at once', async () => {
    const before = (await get(user)).json().data;
    const res = await regenerate(user);
    expect(res.statusCode).toBe(200);
    const after = res.json().data;
    expect(after.username).toBe(before.username);
    expect(after.password).not.toBe(before.password);
    expect(await verify(before.username, before.password)).toBeNull();
    expect(await verify(after.username, after.password)).not.toBeNull();
    expect((await get(user)).json().data.password).toBe(after.password);
  });

  it('store the password hashed and encrypted, never in the clear', async () => {
    const creds = (await get(user)).json().data;
    const [row] = await t.database.query<{ password_hash: string; password_encrypted: string }>(
      'SELECT password_hash, password_encrypted FROM camera_upload_credentials WHERE username = $1',
      [creds.username],
    );
    expect(row!.password_hash.startsWith('scrypt$')).toBe(true);
    expect(row!.password_hash).not.toContain(creds.password);
    expect(row!.password_encrypted).not.toContain(creds.password);
  });

  it('answer with the §8 text before the profile exists', async () => {
    const fresh = await signUp(t, { profile: false });
    const res = await get(fresh);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.loadCameraCredentialsFailed);
    expect((await regenerate(fresh)).json().message).toBe(MESSAGES.regenerateCameraCredentialsFailed);
  });
});
