import {
  INITIAL_LOAD_ATTEMPTS,
  MESSAGES,
  STALE_TIME_MS,
  TYPING_INDICATOR_TIMEOUT_MS,
} from '@homesitter/contract/runtime';
import type { ChatMessage, ReplyToMessage } from '@homesitter/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useRealtimeConnection, useRealtimeEvent } from '../../shared/lib/useRealtime';
import { useSession } from '../../shared/lib/useSession';
import { chatKeys, fetchHistoryPage, postMessage } from './chatApi';
import { loadFirstPage, updateChat } from './chatCache';
import { chatReducer, isSameMessage, type ChatAction, type ChatItem } from './chatState';

export interface SendInput {
  text: string;
  images?: string[];
  replyTo?: ReplyToMessage | null;
}

/** Older pages loaded on this screen, above the cached page 1; `hasMore` is null until one was loaded. */
interface OlderPages {
  messages: ChatMessage[];
  page: number;
  hasMore: boolean | null;
}

let tempCounter = 0;
const tempId = () => `temp-${Date.now()}-${(tempCounter += 1)}`;

/**
 * Everything the chat screen does with data (docs/product.md §4): history (page 1 and the live messages from the query
 * cache, which the signed-in session keeps current; older pages prepended here), the optimistic send with
 * retry, the typing indicator and the connection's state.
 */
export function useChat() {
  const { status, isVerified } = useSession();
  const canUse = status === 'signedIn' && isVerified;
  const [typing, setTyping] = useState('');
  const [justReceived, setJustReceived] = useState(0);
  const [olderPages, setOlderPages] = useState<OlderPages>({ messages: [], page: 1, hasMore: null });
  const [olderLoad, setOlderLoad] = useState({ loading: false, error: null as string | null });
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastActivity = useRef(0);
  const connection = useRealtimeConnection();
  const queryClient = useQueryClient();

  // Page 1: two attempts, no user-facing error; stale after an hour, refreshed when the page is visible again
  // and after the connection was lost (ChatLiveSync).
  const first = useQuery({
    queryKey: chatKeys.firstPage,
    queryFn: () => loadFirstPage(queryClient),
    enabled: canUse,
    staleTime: STALE_TIME_MS,
    retry: INITIAL_LOAD_ATTEMPTS - 1,
    refetchOnWindowFocus: true,
  });
  const cached = first.data?.messages;
  const items = useMemo<ChatItem[]>(() => {
    const recent = cached ?? [];
    const older = olderPages.messages.filter((m) => !recent.some((i) => isSameMessage(i, m)));
    return [...older, ...recent];
  }, [cached, olderPages.messages]);
  const hasMore = olderPages.hasMore ?? first.data?.hasMore ?? false;
  const older = { page: olderPages.page, hasMore, ...olderLoad };

  const { refetch } = first;

  const clearTyping = useCallback(() => {
    clearTimeout(typingTimer.current);
    setTyping('');
  }, []);
  useEffect(() => () => clearTimeout(typingTimer.current), []);

  useRealtimeEvent('ReceiveProgressUpdate', (update) => {
    const text = update.in_progress_text ?? '';
    if (!text) return clearTyping();
    setTyping(text);
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => setTyping(''), TYPING_INDICATOR_TIMEOUT_MS);
  });

  // The message itself goes into the cache (ChatLiveSync); here only what the open screen shows about it.
  useRealtimeEvent('ReceiveMessage', (message) => {
    if (message.role === 'agent') {
      clearTyping();
      setJustReceived((n) => n + 1);
    }
    lastActivity.current = Date.now();
  });

  // A change to a message of the older pages (the cached ones change in ChatLiveSync): it keeps its place.
  useRealtimeEvent('ReceiveMessageUpdate', (message) =>
    setOlderPages((o) => ({ ...o, messages: chatReducer(o.messages, { type: 'update', message }) })),
  );

  const loadOlder = useCallback(async () => {
    if (!hasMore || olderLoad.loading) return;
    const page = olderPages.page + 1;
    setOlderLoad({ loading: true, error: null });
    try {
      const result = await fetchHistoryPage(page);
      setOlderPages((o) => ({
        messages: [
          ...result.messages.filter((m) => !o.messages.some((i) => isSameMessage(i, m))),
          ...o.messages,
        ],
        page,
        hasMore: result.pagination.hasMore,
      }));
      setOlderLoad({ loading: false, error: null });
    } catch {
      setOlderLoad({ loading: false, error: MESSAGES.loadOlderMessagesFailed });
    }
  }, [hasMore, olderPages.page, olderLoad.loading]);

  // Our messages live in the cache too: a send finishes (or fails) there even when the screen was left.
  const dispatch = useCallback(
    (action: ChatAction) => updateChat(queryClient, action, { create: true }),
    [queryClient],
  );

  const deliver = useCallback(
    async (item: ChatItem) => {
      try {
        const stored = await postMessage({
          text: item.text,
          date_time_utc: item.date_time_utc,
          images: item.image_urls,
          videos: [],
          reply_to_message_uuid: item.reply_to_message_uuid,
          reply_to_message: item.reply_to_message,
        });
        dispatch({ type: 'confirm', localId: item.localId!, message: stored });
      } catch {
        dispatch({ type: 'fail', localId: item.localId! });
      }
    },
    [dispatch],
  );

  /** Sends only a non-empty text, for a signed-in verified user (docs/product.md §5); otherwise nothing happens. */
  const send = useCallback(
    (input: SendInput) => {
      const text = input.text.trim();
      if (!text || !canUse) return false;
      const localId = tempId();
      const item: ChatItem = {
        message_uuid: localId,
        localId,
        date_time_utc: new Date().toISOString(),
        role: 'user',
        text,
        image_urls: input.images ?? [],
        hidden_images: [],
        videos: [],
        source_activity_uuid_list: [],
        reply_to_message_uuid: input.replyTo?.message_uuid ?? null,
        reply_to_message: input.replyTo ?? null,
        isPending: true,
      };
      dispatch({ type: 'pending', item });
      lastActivity.current = Date.now();
      void deliver(item);
      return true;
    },
    [canUse, deliver, dispatch],
  );

  const retry = useCallback(
    (item: ChatItem) => {
      if (!item.localId) return;
      dispatch({ type: 'retry', localId: item.localId });
      void deliver(item);
    },
    [deliver, dispatch],
  );

  return {
    items,
    canSend: canUse,
    initialLoading: first.isPending && canUse,
    initialError: first.isError && items.length === 0,
    reload: () => void refetch(),
    typing,
    justReceived,
    older,
    loadOlder,
    send,
    retry,
    connection,
  };
}
export type ChatController = ReturnType<typeof useChat>;
