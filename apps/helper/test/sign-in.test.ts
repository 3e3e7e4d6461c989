import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningHelper } from '../src/helper.js';
import { startFakeServer, type FakeServer } from './support/fake-server.js';
import { callbackUrl, signIn, startTestHelper, tempDir, waitFor } from './support/harness.js';

const mode = (file: string) => statSync(file).mode & 0o777;
const readSession = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;

describe('signing the helper in', () => {
  let fake: FakeServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let helper: RunningHelper | undefined;
  let sessionFile: string;

  beforeEach(async () => {
    fake = await startFakeServer();
    dir = await tempDir();
    sessionFile = join(dir.path, 'session.json');
  });
  afterEach(async () => {
    await helper?.stop();
    helper = undefined;
    await fake.close();
    await dir.remove();
  });

  const start = async () => (helper = await startTestHelper(dir.path, { HOMESITTER_URL: fake.url }));

  it('buys its own session with the browser token, stores it 0600 and sends the browser to the success page', async () => {
    await start();
    fake.browserTokens.add('browser.token.sig');
    const res = await fetch(await callbackUrl(helper!, 'browser.token.sig'), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${fake.url}/auth/success`);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');

    expect(mode(sessionFile)).toBe(0o600);
    expect(mode(dir.path)).toBe(0o700);
    expect(readSession(sessionFile)).toMatchObject({
      refresh_token: fake.currentRefreshToken(),
      email: 'owner@example.com',
      server_url: fake.url,
    });
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({
      signed_in: true,
      email: 'owner@example.com',
    });
  });

  it('explains a missing or refused sign-in on a page that links back to the sign-in', async () => {
    await start();
    const missing = await fetch(new URL(await callbackUrl(helper!, 'x')).href.replace(/&token=x$/, ''));
    expect(missing.status).toBe(400);
    expect(missing.headers.get('content-type')).toContain('text/html');
    const page = await missing.text();
    expect(page).toContain('carries no sign-in');
    expect(page).toContain(`href="${helper!.url}/sign-in"`);

    const refused = await fetch(await callbackUrl(helper!, 'stale.token.sig'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('did not accept this sign-in');
    expect(existsSync(sessionFile)).toBe(false);
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({ signed_in: false });
  });

  it('refuses a callback it did not start, or one already used: another account cannot be slipped in', async () => {
    await start();
    fake.browserTokens.add('attacker.token.sig');
    const unstarted = await fetch(`${helper!.url}/callback?token=attacker.token.sig`);
    expect(unstarted.status).toBe(400);
    expect(await unstarted.text()).toContain('not started by Homesitter on this computer');
    const forged = await fetch(`${helper!.url}/callback?state=guess&token=attacker.token.sig`);
    expect(forged.status).toBe(400);
    expect(existsSync(sessionFile)).toBe(false);

    const used = await callbackUrl(helper!, 'attacker.token.sig');
    expect((await fetch(used, { redirect: 'manual' })).status).toBe(302);
    expect((await fetch(used, { redirect: 'manual' })).status).toBe(400);
  });

  it('sends a person who opens /sign-in to the app sign-in page that comes back here', async () => {
    await start();
    const res = await fetch(`${helper!.url}/sign-in`, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${fake.url}/auth`);
    expect(location.searchParams.get('redirect')).toMatch(
      new RegExp(`^${helper!.url.replace(/\./g, '\\.')}/callback\\?state=[\\w-]{24}$`),
    );
  });

  it('signs out: tells the server, deletes session.json', async () => {
    await start();
    await signIn(helper!, fake);
    const refreshToken = fake.currentRefreshToken();
    const res = await fetch(`${helper!.url}/sign-out`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ signed_in: false });
    expect(fake.signOuts).toEqual([refreshToken]);
    expect(existsSync(sessionFile)).toBe(false);
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({
      signed_in: false,
      email: null,
    });
  });

  it('refreshes its ID token before it expires and stores each rotated refresh token', async () => {
    fake.expiresIn = 1;
    await start();
    await signIn(helper!, fake);
    const first = fake.currentRefreshToken();
    await waitFor(() => fake.refreshCalls >= 2, 'two refreshes');
    await waitFor(
      () =>
        readSession(sessionFile).refresh_token === fake.currentRefreshToken() &&
        fake.currentRefreshToken() !== first,
      'the rotated refresh token on disk',
    );
    expect(mode(sessionFile)).toBe(0o600);
  });

  it('stays signed in across a restart, and is signed out when the server refuses the stored session', async () => {
    await start();
    await signIn(helper!, fake);
    await helper!.stop();

    await start();
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({ signed_in: true });
    await waitFor(() => fake.refreshCalls === 1, 'the refresh at start');
    await waitFor(
      () => readSession(sessionFile).refresh_token === fake.currentRefreshToken(),
      'the new token stored',
    );
    await helper!.stop();

    // Revoked meanwhile (signed out everywhere in the app): the next start finds out and forgets it.
    fake.signOuts.length = 0;
    await fetch(`${fake.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: fake.currentRefreshToken() }),
    });
    await start();
    await waitFor(() => !existsSync(sessionFile), 'session.json deleted');
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({ signed_in: false });
  });
});
