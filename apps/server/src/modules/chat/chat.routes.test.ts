import { MESSAGES } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_MEDIA_SECRET, type TestApp, type TestUser } from '../../../test/app.js';
import { createMediaSigner } from '../media/media.signer.js';

let t: TestApp;
let rose: TestUser;
let otto: TestUser;
beforeAll(async () => {
  // The chat's own mechanics, without the home sitter's answers in the history (those are the AI's tests).
  t = await createTestApp({ chatAnswers: false });
  [rose, otto] = await Promise.all([signUp(t), signUp(t)]);
});
afterAll(async () => t.close());

const send = (who: TestUser | null, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/messages',
    headers: who?.auth ?? {},
    payload: payload as object,
  });
const userIdOf = async (who: TestUser): Promise<string> =>
  (await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: who.auth })).json<{
    data: { user_uuid: string };
  }>().data.user_uuid;
const history = (who: TestUser, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/users/conversation-history${query}`, headers: who.auth });

describe('sending a message', () => {
  it('stores the trimmed text with the client time and answers the stored message', async () => {
    const res = await send(rose, {
      text: '  Is the back door closed?  ',
      date_time_utc: '2025-03-01T10:00:00.000Z',
      images: [],
      videos: [],
      reply_to_message_uuid: null,
      reply_to_message: null,
    });
    expect(res.statusCode).toBe(201);
    const message = res.json().data;
    expect(message).toMatchObject({
      role: 'user',
      text: 'Is the back door closed?',
      date_time_utc: '2025-03-01T10:00:00.000Z',
      image_urls: [],
      hidden_images: [],
      videos: [],
      source_activity_uuid_list: [],
      reply_to_message_uuid: null,
      reply_to_message: null,
    });
    expect(message.message_uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an empty or whitespace-only text, and one over 4,000 characters, storing nothing', async () => {
    const fresh = await signUp(t);
    for (const text of ['', '   \n ', 'x'.repeat(4_001)]) {
      const res = await send(fresh, { text });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: MESSAGES.sendMessageFailed,
        code: 'validation_failed',
      });
      expect(res.json().details[0].field).toBe('text');
    }
    expect((await send(fresh, { text: 'y'.repeat(4_000) })).statusCode).toBe(201);
    expect((await history(fresh)).json().data).toHaveLength(1);
  });

  it('refuses unknown fields, a malformed time and a missing body with 400', async () => {
    expect((await send(rose, { text: 'hi', admin: true })).statusCode).toBe(400);
    expect((await send(rose, { text: 'hi', date_time_utc: 'yesterday' })).statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'POST', url: '/api/users/messages', headers: rose.auth });
    expect(empty.statusCode).toBe(400);
  });

  it('refuses a time outside 2000 to 2099 with 400 naming the field, instead of storing another date', async () => {
    const fresh = await signUp(t);
    for (const date_time_utc of [
      '0001-01-01T00:00:00Z',
      '0099-06-01T12:00:00Z',
      '1999-12-31T23:59:59Z',
      '2000-01-01T00:30:00+01:00',
      '2100-01-01T00:00:00Z',
    ]) {
      const res = await send(fresh, { text: 'hi', date_time_utc });
      expect(res.statusCode, date_time_utc).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: MESSAGES.sendMessageFailed,
        code: 'validation_failed',
        details: [
          { field: 'date_time_utc', message: 'date_time_utc must be between 2000-01-01 and 2099-12-31' },
        ],
      });
    }
    expect((await history(fresh)).json().data).toHaveLength(0);
    const first = await send(fresh, { text: 'hi', date_time_utc: '2000-01-01T00:00:00Z' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data.date_time_utc).toBe('2000-01-01T00:00:00.000Z');
  });

  it("accepts only the user's own signed media as images", async () => {
    const roseId = await userIdOf(rose);
    const signer = createMediaSigner(TEST_MEDIA_SECRET, 'http://homesitter.test');
    const own = signer.url(`users/${roseId}/photo.jpg`, Math.floor(Date.now() / 1000) + 3600);
    const forged = `/media/users/${roseId}/photo.jpg?exp=1&sig=abc`;
    const ok = await send(rose, { text: 'Save this', images: [own] });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.image_urls).toEqual([own]);
    const ottos = `/media/users/${await userIdOf(otto)}/photo.jpg?exp=1&sig=abc`;
    for (const url of [
      forged,
      'https://evil.example/media/a.jpg',
      'javascript:alert(1)',
      '/api/users/profile',
      ottos,
    ]) {
      const res = await send(rose, { text: 'Save this', images: [url] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: MESSAGES.sendMessageFailed,
        code: 'chat.image_not_allowed',
      });
    }
  });

  it("accepts only the user's own signed media in a clip's links", async () => {
    const roseId = await userIdOf(rose);
    const signer = createMediaSigner(TEST_MEDIA_SECRET, 'http://homesitter.test');
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const clip = signer.url(`users/${roseId}/clip.mp4`, exp);
    const poster = signer.url(`users/${roseId}/poster.jpg`, exp);
    const ok = await send(rose, {
      text: 'This one',
      videos: [{ video_url: clip, thumbnail_image_url: poster }],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.videos).toMatchObject([{ video_url: clip, thumbnail_image_url: poster }]);
    const ottos = `/media/users/${await userIdOf(otto)}/clip.mp4?exp=1&sig=abc`;
    for (const video of [
      { video_url: 'javascript:alert(1)' },
      { url: 'https://evil.example/clip.mp4' },
      { hls_url: ottos },
      { video_url: clip, thumbnail_image_url: 'https://evil.example/p.jpg' },
    ]) {
      const res = await send(rose, { text: 'This one', videos: [video] });
      expect(res.statusCode, JSON.stringify(video)).toBe(400);
      expect(res.json()).toMatchObject({
        message: MESSAGES.sendMessageFailed,
        code: 'chat.video_not_allowed',
      });
    }
  });

  it('quotes the replied-to message from the database, and refuses a reply to a message that is not yours', async () => {
    const original = (await send(rose, { text: 'Who was at the gate?' })).json().data;
    const reply = await send(rose, {
      text: 'And at the door?',
      reply_to_message_uuid: original.message_uuid,
      reply_to_message: { message_uuid: original.message_uuid, text: 'forged quote', role: 'agent' },
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().data).toMatchObject({
      reply_to_message_uuid: original.message_uuid,
      reply_to_message: { message_uuid: original.message_uuid, text: 'Who was at the gate?', role: 'user' },
    });
    const foreign = await send(otto, { text: 'Reply', reply_to_message_uuid: original.message_uuid });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('chat.reply_not_found');
  });

  it('needs a token and a verified email', async () => {
    expect((await send(null, { text: 'hi' })).statusCode).toBe(401);
    const unverified = await signUp(t, { verify: false });
    const res = await send(unverified, { text: 'hi' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.email_not_verified');
  });
});

describe('conversation history', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUp(t);
    for (let i = 1; i <= 23; i++) {
      const minute = String(i).padStart(2, '0');
      const res = await send(user, { text: `message ${i}`, date_time_utc: `2025-04-01T09:${minute}:00Z` });
      expect(res.statusCode).toBe(201);
    }
    await t.modules.chat.postAgentMessage(await profileId(user), { text: 'The gate is closed.' });
  });

  async function profileId(who: TestUser): Promise<string> {
    return (await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: who.auth })).json<{
      data: { user_uuid: string };
    }>().data.user_uuid;
  }

  it('answers page 1 with the newest 10 messages in ascending time order', async () => {
    const res = await history(user);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 1, pageSize: 10, hasMore: true });
    expect(body.data.map((m: { text: string }) => m.text)).toEqual([
      ...Array.from({ length: 9 }, (_, i) => `message ${i + 15}`),
      'The gate is closed.',
    ]);
    expect(body.data.at(-1).role).toBe('agent');
  });

  it('pages back to the oldest message, and says when there is no more', async () => {
    const page2 = (await history(user, '?page=2&pageSize=10')).json();
    expect(page2.pagination.hasMore).toBe(true);
    const exact = (await history(user, '?page=2&pageSize=12')).json();
    expect(exact.data).toHaveLength(12);
    expect(exact.pagination.hasMore).toBe(false);
    const page3 = (await history(user, '?page=3&pageSize=10')).json();
    expect(page3.pagination).toEqual({ page: 3, pageSize: 10, hasMore: false });
    expect(page3.data.map((m: { text: string }) => m.text)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
    ]);
    const beyond = (await history(user, '?page=9')).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination.hasMore).toBe(false);
  });

  it('allows page sizes up to 50 and refuses anything else with 400', async () => {
    expect((await history(user, '?pageSize=50')).json().data).toHaveLength(24);
    for (const q of ['?pageSize=51', '?pageSize=0', '?page=0', '?page=abc', '?colour=red']) {
      const res = await history(user, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toBe(MESSAGES.loadConversationHistoryFailed);
    }
  });

  it("never shows another user's messages", async () => {
    const body = (await history(otto, '?pageSize=50')).json();
    expect(body.pagination.hasMore).toBe(false);
    expect(body.data).toEqual([]);
  });

  it('goes with the account when it is deleted', async () => {
    const leaving = await signUp(t);
    await send(leaving, { text: 'bye' });
    const id = await profileId(leaving);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/users', headers: leaving.auth })).statusCode,
    ).toBe(200);
    const [row] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from chat_messages where user_id = $1',
      [id],
    );
    expect(row?.n).toBe(0);
  });
});

describe('operator agent message', () => {
  it('posts as the home sitter to the user with that email, with the admin token only', async () => {
    const payload = { email: rose.email, text: 'Maintenance tonight at 22:00.' };
    const denied = await t.app.inject({
      method: 'POST',
      url: '/api/admin/chat/agent-message',
      headers: rose.auth,
      payload,
    });
    expect(denied.statusCode).toBe(403);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/chat/agent-message',
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
      payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ role: 'agent', text: 'Maintenance tonight at 22:00.' });
    const newest = (await history(rose)).json().data.at(-1);
    expect(newest.text).toBe('Maintenance tonight at 22:00.');
  });
});
