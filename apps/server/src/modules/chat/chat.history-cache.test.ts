/**
 * The newest page of the conversation history is answered from a per-user cache on the embedded database
 * (platform/read-cache.ts). Each test reads the page first (so it is cached), then a message is written,
 * changed or removed, and the very next read must show it. On PostgreSQL the cache is off and the same
 * tests simply read the database.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TEST_ADMIN_TOKEN, type TestApp, type TestUser } from '../../../test/app.js';
import { chatMessages } from '../../platform/db/schema.js';
import { createReadCache } from '../../platform/read-cache.js';
import { createChatRepository } from './chat.repository.js';
import { createChatService, type NewestPage } from './chat.service.js';

/** The suite's PostgreSQL run (test/database.ts): no cache there. */
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);

let t: TestApp;
beforeAll(async () => {
  // The chat's own mechanics, without the home sitter's answers in the history (those are the AI's tests).
  t = await createTestApp({ chatAnswers: false });
});
afterAll(async () => t.close());

async function page(who: TestUser, query = '?page=1&pageSize=10') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/users/conversation-history${query}`,
    headers: who.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: ChatMessage[]; pagination: { hasMore: boolean } }>();
}
const texts = async (who: TestUser, query?: string) => (await page(who, query)).data.map((m) => m.text);

const userIdOf = async (who: TestUser): Promise<string> =>
  (await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: who.auth })).json<{
    data: { user_uuid: string };
  }>().data.user_uuid;

const send = (who: TestUser, text: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/messages', headers: who.auth, payload: { text } });

describe('the cached newest history page', () => {
  it.skipIf(ON_POSTGRES)(
    'is cached on the embedded database: a message written behind the service’s back is not seen',
    async () => {
      const who = await signUp(t);
      expect(await texts(who)).toEqual([]);
      await t.database.db
        .insert(chatMessages)
        .values({ userId: await userIdOf(who), role: 'user', text: 'Hidden', sentAt: new Date() });
      expect(await texts(who)).toEqual([]);
    },
  );

  it('shows the user’s own message as soon as it is sent, for every page size', async () => {
    const who = await signUp(t);
    expect(await texts(who)).toEqual([]);
    expect(await texts(who, '?page=1&pageSize=1')).toEqual([]);
    expect((await send(who, 'Is the gate shut?')).statusCode).toBe(201);
    expect(await texts(who)).toEqual(['Is the gate shut?']);
    expect(await texts(who, '?page=1&pageSize=1')).toEqual(['Is the gate shut?']);
  });

  it('shows the home sitter’s message, its update and its removal at once', async () => {
    const who = await signUp(t);
    const userId = await userIdOf(who);
    expect(await texts(who)).toEqual([]);

    const posted = await t.modules.chat.postAgentMessage(userId, { text: 'Someone is at the front door.' });
    expect(await texts(who)).toEqual(['Someone is at the front door.']);

    await t.modules.chat.updateAgentMessage(userId, posted.message_uuid, {
      text: 'The courier is at the door.',
    });
    expect(await texts(who)).toEqual(['The courier is at the door.']);

    await t.modules.chat.deleteAgentMessage(userId, posted.message_uuid);
    expect(await texts(who)).toEqual([]);
  });

  it('shows the operator’s message to a user at once', async () => {
    const who = await signUp(t);
    expect(await texts(who)).toEqual([]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/chat/agent-message',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { email: who.email, text: 'Welcome to Homesitter.' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await texts(who)).toEqual(['Welcome to Homesitter.']);
  });

  it('says there is more once the history grows past the page', async () => {
    const who = await signUp(t);
    await send(who, 'one');
    expect((await page(who, '?page=1&pageSize=1')).pagination.hasMore).toBe(false);
    await send(who, 'two');
    const after = await page(who, '?page=1&pageSize=1');
    expect(after.data.map((m) => m.text)).toEqual(['two']);
    expect(after.pagination.hasMore).toBe(true);
  });

  it('is each user’s own', async () => {
    const one = await signUp(t);
    const two = await signUp(t);
    expect(await texts(two)).toEqual([]);
    await send(one, 'Mine only');
    expect(await texts(one)).toEqual(['Mine only']);
    expect(await texts(two)).toEqual([]);
  });

  it('is gone with the account: its token answers 401, nothing comes from the cache', async () => {
    const who = await signUp(t);
    await send(who, 'Bye');
    expect(await texts(who)).toEqual(['Bye']);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users', headers: who.auth })).statusCode).toBe(
      200,
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/users/conversation-history?page=1&pageSize=10',
      headers: who.auth,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('clips on the cached newest page', () => {
  /** The chat service on the test app's database, with an enabled cache and a refresher that counts. */
  async function chatWithRefresher(who: TestUser) {
    const userId = await userIdOf(who);
    const refreshes = { count: 0 };
    const chat = createChatService({
      repo: createChatRepository(t.database.db),
      userIdOf: async () => userId,
      newestPages: createReadCache<NewestPage>({ enabled: true, ttlMs: 60_000 }),
      realtime: { publish: async () => undefined },
      isOwnMediaUrl: () => true,
      // Stands in for alerts/attachments.ts: each read signs the clips' links anew.
      refreshAttachments: async (_userId, messages) => {
        refreshes.count += 1;
        return messages.map((m) => ({
          ...m,
          videos: m.videos.map((v) => ({
            ...v,
            video_url: `https://media.test/clip?read=${refreshes.count}`,
          })),
        }));
      },
    });
    const read = async () =>
      (JSON.parse((await chat.historyJson(who.uid, 1, 10)).json.toString()) as { data: ChatMessage[] }).data;
    return { chat, userId, refreshes, read };
  }

  it('get fresh links on every read, while the messages come from the cache', async () => {
    const who = await signUp(t);
    const { chat, userId, read } = await chatWithRefresher(who);
    await chat.postAgentMessage(userId, {
      text: 'Someone at the gate.',
      videos: [{ activity_uuid: randomUUID(), video_url: 'https://media.test/clip?stored' }],
    });
    expect((await read())[0]?.videos[0]?.video_url).toBe('https://media.test/clip?read=1');
    expect((await read())[0]?.videos[0]?.video_url).toBe('https://media.test/clip?read=2');
  });

  it('are absent from a text-only page, which is kept whole', async () => {
    const who = await signUp(t);
    const { chat, userId, refreshes, read } = await chatWithRefresher(who);
    await chat.postAgentMessage(userId, { text: 'All quiet at home.' });
    expect((await read()).map((m) => m.text)).toEqual(['All quiet at home.']);
    expect((await read()).map((m) => m.text)).toEqual(['All quiet at home.']);
    expect(refreshes.count).toBe(1);
  });
});
