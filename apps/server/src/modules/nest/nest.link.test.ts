import { NEST_CALLBACK_PATH, NEST_GUIDE_PATH } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { nestLinkStates, nestLinks } from '../../platform/db/schema.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { sdmDevice, startFakeGoogle, type FakeGoogle } from '../../../test/fake-google.js';

let t: TestApp;
let google: FakeGoogle;
beforeAll(async () => {
  google = await startFakeGoogle();
  t = await createTestApp({ env: google.env, chatAnswers: false });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const P = 'test-project';
const get = (who: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: who.auth });

async function consentUrl(who: TestUser): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/nest/link', headers: who.auth });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: { url: string } }>().data.url;
}

/** The browser's round trip: Google's consent page, then its redirect back to our callback. */
async function consent(who: TestUser): Promise<{ callback: string; outcome: string | null }> {
  const page = await fetch(await consentUrl(who), { redirect: 'manual' });
  const callback = page.headers.get('location')!;
  return { callback, outcome: await follow(callback) };
}

async function follow(callback: string): Promise<string | null> {
  const url = new URL(callback);
  const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(res.statusCode).toBe(303);
  const location = new URL(res.headers.location as string);
  expect(location.pathname).toBe('/cameras');
  return location.searchParams.get('nest');
}

async function nestCameras(who: TestUser) {
  const res = await get(who, '/api/users/cameras');
  return res
    .json<{
      data: {
        name: string;
        connection_type: string;
        configuration_status: string;
        configuration_error_code: string | null;
      }[];
    }>()
    .data.filter((c) => c.connection_type === 'nest');
}

const linkRow = async (who: TestUser) => {
  const userId = (await get(who, '/api/users/profile')).json<{ data: { user_uuid: string } }>().data
    .user_uuid;
  const [row] = await t.database.db.select().from(nestLinks).where(eq(nestLinks.userId, userId));
  return row;
};

describe('linking a Google account', () => {
  it('sends the owner to the Partner Connections Manager with the documented parameters', async () => {
    const who = await signUp(t);
    const url = new URL(await consentUrl(who));
    expect(url.pathname).toBe(`/partnerconnections/${P}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      redirect_uri: `http://homesitter.test${NEST_CALLBACK_PATH}`,
      access_type: 'offline',
      prompt: 'consent',
      client_id: google.env.NEST_CLIENT_ID,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/sdm.service',
    });
    expect(url.searchParams.get('state')).toBeTruthy();
  });

  it('stores the tokens encrypted and makes one camera per Nest camera, doorbell and display', async () => {
    google.state.devices = [
      sdmDevice(P, 'cam1', { customName: 'Garden', protocols: ['RTSP'] }),
      sdmDevice(P, 'bell1', { type: 'DOORBELL', room: 'Front Door', protocols: ['WEB_RTC'] }),
      sdmDevice(P, 'disp1', { type: 'DISPLAY', room: 'Kitchen' }),
      sdmDevice(P, 'therm1', { type: 'THERMOSTAT', room: 'Hall' }),
    ];
    const who = await signUp(t);
    const rtsp = google.state.rtspGenerated;
    expect(google.state.rtspStopped).toBe(rtsp);
    // A camera of the same name already exists: the Nest one gets a number, names stay unique.
    await t.app.inject({
      method: 'POST',
      url: '/api/users/cameras',
      headers: who.auth,
      payload: { name: 'Garden' },
    });
    const { outcome } = await consent(who);
    expect(outcome).toBe('linked');

    const cameras = await nestCameras(who);
    expect(cameras.map((c) => c.name).sort()).toEqual(['Front Door Doorbell', 'Garden 2', 'Kitchen Display']);
    expect(cameras.every((c) => c.configuration_status === 'configured')).toBe(true);
    // The two RTSP devices had a stream generated and stopped once; the WebRTC-only doorbell none.
    expect(google.state.rtspGenerated - rtsp).toBe(2);
    expect(google.state.rtspStopped - rtsp).toBe(2);

    const status = (await get(who, '/api/users/nest')).json<{ data: Record<string, unknown> }>().data;
    expect(status).toMatchObject({ configured: true, status: 'linked' });
    expect(status.cameras).toContainEqual(
      expect.objectContaining({ name: 'Front Door Doorbell', kind: 'doorbell', protocols: ['WEB_RTC'] }),
    );

    const row = await linkRow(who);
    expect(row?.refreshToken).toMatch(/^v1:/);
    expect(row?.refreshToken).not.toContain('1//');
  });

  it('keeps the cameras in step with the devices of the Google account', async () => {
    google.state.devices = [
      sdmDevice(P, 'a', { customName: 'Porch' }),
      sdmDevice(P, 'b', { customName: 'Yard' }),
    ];
    const who = await signUp(t);
    expect((await consent(who)).outcome).toBe('linked');
    const userId = (await get(who, '/api/users/profile')).json<{ data: { user_uuid: string } }>().data
      .user_uuid;

    google.state.devices = [
      sdmDevice(P, 'b', { customName: 'Yard' }),
      sdmDevice(P, 'c', { customName: 'Garage' }),
    ];
    // An access token Google dropped early is replaced without bothering the owner.
    google.expireAccessTokens();
    await t.modules.nest.sync(userId);
    expect((await nestCameras(who)).map((c) => c.name).sort()).toEqual(['Garage', 'Yard']);
  });

  it('refuses a forged, replayed or expired state without exchanging its code or storing anything', async () => {
    const who = await signUp(t);
    google.state.devices = [];
    const exchanged = google.state.exchanged;

    const forged = await follow(`http://x${NEST_CALLBACK_PATH}?code=4/abc&state=v1:AAAA:BBBB:CCCC`);
    expect(forged).toBe('state_invalid');
    expect(await follow(`http://x${NEST_CALLBACK_PATH}?code=4/abc`)).toBe('state_invalid');

    const { callback, outcome } = await consent(who);
    expect(outcome).toBe('linked');
    await t.app.inject({ method: 'DELETE', url: '/api/nest/link', headers: who.auth });
    expect(await follow(callback)).toBe('state_invalid');

    // A state that outlived its ten minutes.
    const page = await fetch(await consentUrl(who), { redirect: 'manual' });
    await t.database.db.update(nestLinkStates).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await follow(page.headers.get('location')!)).toBe('state_invalid');

    expect(google.state.exchanged).toBe(exchanged + 1);
    expect(await linkRow(who)).toBeUndefined();
  });

  it('says so when the owner declines or Google refuses the code, and stores nothing', async () => {
    const who = await signUp(t);
    google.state.denyConsent = true;
    expect((await consent(who)).outcome).toBe('denied');
    google.state.failExchange = true;
    try {
      expect((await consent(who)).outcome).toBe('exchange_failed');
    } finally {
      google.state.failExchange = false;
    }
    expect(await linkRow(who)).toBeUndefined();
    expect((await get(who, '/api/users/nest')).json().data.status).toBe('unlinked');
  });

  it('turns the cameras failed with one chat message when Google refuses the link (invalid_grant)', async () => {
    google.state.devices = [sdmDevice(P, 'g1', { customName: 'Shed' })];
    const who = await signUp(t);
    expect((await consent(who)).outcome).toBe('linked');
    const userId = (await get(who, '/api/users/profile')).json<{ data: { user_uuid: string } }>().data
      .user_uuid;
    google.state.revokeGrant = true;
    try {
      google.expireAccessTokens();
      await t.modules.nest.sync(userId);
      await t.modules.nest.sync(userId);
    } finally {
      google.state.revokeGrant = false;
    }
    const [shed] = await nestCameras(who);
    expect(shed).toMatchObject({
      configuration_status: 'failed',
      configuration_error_code: 'nest_link_lost',
    });
    expect((await get(who, '/api/users/nest')).json().data.status).toBe('failed');
    const history = (await get(who, '/api/users/conversation-history')).json<{ data: { text: string }[] }>();
    expect(history.data.filter((m) => m.text.includes('Reconnect Google Nest'))).toHaveLength(1);

    // Reconnect: a new consent heals the link and the cameras.
    expect((await consent(who)).outcome).toBe('linked');
    expect((await nestCameras(who))[0]).toMatchObject({ name: 'Shed', configuration_status: 'configured' });
  });

  it('unlinks: the token is revoked at Google and deleted, the Nest cameras removed', async () => {
    google.state.devices = [sdmDevice(P, 'u1', { customName: 'Attic' })];
    const who = await signUp(t);
    expect((await consent(who)).outcome).toBe('linked');
    const revoked = google.state.revoked.length;
    const res = await t.app.inject({ method: 'DELETE', url: '/api/nest/link', headers: who.auth });
    expect(res.statusCode).toBe(200);
    expect(google.state.revoked.length).toBe(revoked + 1);
    expect(await linkRow(who)).toBeUndefined();
    expect(await nestCameras(who)).toEqual([]);
    const again = await t.app.inject({ method: 'DELETE', url: '/api/nest/link', headers: who.auth });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('nest.not_linked');
  });
});

describe('setting up an RTSP camera under the rate limit', () => {
  it('stays configuring while Google answers 429, and is configured by the next sync', async () => {
    google.state.devices = [sdmDevice(P, 'r1', { customName: 'Carport', protocols: ['RTSP'] })];
    const who = await signUp(t);
    google.state.rateLimited = true;
    try {
      expect((await consent(who)).outcome).toBe('linked');
      expect((await nestCameras(who))[0]).toMatchObject({
        name: 'Carport',
        configuration_status: 'configuring',
      });
    } finally {
      google.state.rateLimited = false;
    }
    const userId = (await get(who, '/api/users/profile')).json<{ data: { user_uuid: string } }>().data
      .user_uuid;
    await t.modules.nest.sync(userId);
    expect((await nestCameras(who))[0]).toMatchObject({
      name: 'Carport',
      configuration_status: 'configured',
    });
  });
});

describe('deleting the account', () => {
  it('revokes the Google grant before the account and its Nest rows go', async () => {
    google.state.devices = [sdmDevice(P, 'd1', { customName: 'Cellar' })];
    const who = await signUp(t);
    expect((await consent(who)).outcome).toBe('linked');
    const revoked = google.state.revoked.length;
    const res = await t.app.inject({ method: 'DELETE', url: '/api/users', headers: who.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(google.state.revoked.length).toBe(revoked + 1);
  });
});

describe('without Nest configured', () => {
  it('answers 503 nest.not_configured to link, says so in the status, and serves the operator guide', async () => {
    const plain = await createTestApp();
    try {
      const who = await signUp(plain);
      const link = await plain.app.inject({ method: 'POST', url: '/api/nest/link', headers: who.auth });
      expect(link.statusCode).toBe(503);
      expect(link.json().code).toBe('nest.not_configured');
      const status = await plain.app.inject({ method: 'GET', url: '/api/users/nest', headers: who.auth });
      expect(status.json().data).toEqual({
        configured: false,
        status: 'unlinked',
        linked_at: null,
        cameras: [],
      });
      const guide = await plain.app.inject({ method: 'GET', url: NEST_GUIDE_PATH });
      expect(guide.statusCode).toBe(200);
      expect(guide.body).toContain('NEST_PROJECT_ID');
    } finally {
      await plain.close();
    }
  });
});
