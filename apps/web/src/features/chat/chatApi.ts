import { CHAT_HISTORY_PAGE_SIZE } from '@homesitter/contract/runtime';
import type { ChatMessage, Pagination, SendMessageRequest } from '@homesitter/contract';
import { api } from '../../shared/lib/api';

export const chatKeys = {
  firstPage: ['chat', 'history', 1] as const,
};

export interface HistoryPage {
  messages: ChatMessage[];
  pagination: Pagination;
}

export async function fetchHistoryPage(page: number): Promise<HistoryPage> {
  const answer = await api.call('getConversationHistory', {
    query: { page, pageSize: CHAT_HISTORY_PAGE_SIZE },
  });
  return { messages: answer.data, pagination: answer.pagination };
}

export async function postMessage(body: SendMessageRequest): Promise<ChatMessage> {
  return (await api.call('sendMessage', { body })).data;
}
