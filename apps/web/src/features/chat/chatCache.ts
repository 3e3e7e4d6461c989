import type { QueryClient } from '@tanstack/react-query';
import { chatKeys, fetchHistoryPage } from './chatApi';
import { chatReducer, type ChatAction, type ChatItem } from './chatState';

/**
 * The conversation as the query cache holds it: page 1 of the history, the messages that came live since,
 * and ours still being sent. One list, whichever screen is open: the live messages are written here by the
 * signed-in session (ChatLiveSync), so the chat shows them when it opens again.
 */
export interface ChatHistory {
  messages: ChatItem[];
  hasMore: boolean;
}

/** Page 1 from the server, keeping what only this tab knows (docs/product.md §4: page 1 replaces the list). */
export async function loadFirstPage(queryClient: QueryClient): Promise<ChatHistory> {
  const page = await fetchHistoryPage(1);
  const current = queryClient.getQueryData<ChatHistory>(chatKeys.firstPage)?.messages ?? [];
  return {
    messages: chatReducer(current, { type: 'replace', messages: page.messages }),
    hasMore: page.pagination.hasMore,
  };
}

/**
 * Applies a change to the cached conversation. Without a cached one, a live message changes nothing (the
 * history, when loaded, brings it); `create` starts one for our own message sent before the history loaded.
 */
export function updateChat(queryClient: QueryClient, action: ChatAction, options: { create?: boolean } = {}) {
  queryClient.setQueryData<ChatHistory>(chatKeys.firstPage, (old) => {
    if (!old && !options.create) return old;
    const base = old ?? { messages: [], hasMore: false };
    return { ...base, messages: chatReducer(base.messages, action) };
  });
}
