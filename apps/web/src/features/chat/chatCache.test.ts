import type { ChatMessage } from '@homesitter/contract';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as chatApi from './chatApi';
import { chatKeys, fetchHistoryPage } from './chatApi';
import { loadFirstPage, updateChat, type ChatHistory } from './chatCache';

vi.mock('./chatApi', async (original) => ({
  ...(await original<typeof chatApi>()),
  fetchHistoryPage: vi.fn(),
}));

function message(id: string, time: string): ChatMessage {
  return {
    message_uuid: id,
    date_time_utc: time,
    role: 'agent',
    text: `text ${id}`,
    image_urls: [],
    hidden_images: [],
    videos: [],
    source_activity_uuid_list: [],
    reply_to_message_uuid: null,
    reply_to_message: null,
  };
}

const cached = (client: QueryClient) => client.getQueryData<ChatHistory>(chatKeys.firstPage);
const ids = (client: QueryClient) => cached(client)?.messages.map((m) => m.message_uuid);

describe('the cached conversation', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient();
    vi.mocked(fetchHistoryPage).mockReset();
  });

  it('takes live messages once the history is cached, and ignores them before (the history brings them)', () => {
    updateChat(client, { type: 'append', message: message('early', '2025-01-01T09:00:00Z') });
    expect(cached(client)).toBeUndefined();
    client.setQueryData<ChatHistory>(chatKeys.firstPage, {
      messages: [message('a', '2025-01-01T10:00:00Z')],
      hasMore: true,
    });
    updateChat(client, { type: 'append', message: message('b', '2025-01-01T10:01:00Z') });
    updateChat(client, { type: 'append', message: message('b', '2025-01-01T10:01:00Z') });
    expect(ids(client)).toEqual(['a', 'b']);
    expect(cached(client)?.hasMore).toBe(true);
  });

  it('starts a conversation for our own message sent before the history loaded', () => {
    const item = { ...message('tmp-1', '2025-01-01T10:00:00Z'), localId: 'tmp-1', isPending: true };
    updateChat(client, { type: 'pending', item }, { create: true });
    expect(ids(client)).toEqual(['tmp-1']);
  });

  it('loads page 1 keeping the live messages newer than it and the unsent ones', async () => {
    client.setQueryData<ChatHistory>(chatKeys.firstPage, {
      messages: [
        message('a', '2025-01-01T10:00:00Z'),
        message('live', '2025-01-01T10:30:00Z'),
        { ...message('tmp-1', '2025-01-01T10:31:00Z'), localId: 'tmp-1', isPending: true },
      ],
      hasMore: false,
    });
    vi.mocked(fetchHistoryPage).mockResolvedValue({
      messages: [message('a', '2025-01-01T10:00:00Z'), message('missed', '2025-01-01T10:20:00Z')],
      pagination: { page: 1, pageSize: 10, total: 12, hasMore: true },
    });
    const page = await loadFirstPage(client);
    expect(page.messages.map((m) => m.message_uuid)).toEqual(['a', 'missed', 'live', 'tmp-1']);
    expect(page.hasMore).toBe(true);
    expect(fetchHistoryPage).toHaveBeenCalledWith(1);
  });
});
