import {
  INITIAL_LOAD_ATTEMPTS,
  MESSAGES,
  STALE_TIME_MS,
  TYPING_INDICATOR_TIMEOUT_MS,
} from '@homesitter/contract/runtime';
import type { ReplyToMessage } from '@homesitter/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { realtime } from '../../shared/lib/realtime';
import { useRealtimeConnection, useRealtimeEvent } from '../../shared/lib/useRealtime';
import { useSession } from '../../shared/lib/useSession';
import { chatKeys, fetchHistoryPage, postMessage } from './chatApi';
import { chatReducer, type ChatAction, type ChatItem } from './chatState';
import { recognitionKey } from './recognitionApi';

export interface SendInput {
  text: string;
  images?: string[];
  replyTo?: ReplyToMessage | null;
}

interface ChatView {
  items: ChatItem[];
  /** The oldest page loaded so far, and whether the server has older ones. */
  page: number;
  hasMore: boolean;
}

type ViewAction = ChatAction & { page?: number; hasMore?: boolean };

function viewReducer(view: ChatView, action: ViewAction): ChatView {
  return {
    items: chatReducer(view.items, action),
    page: action.page ?? view.page,
    hasMore: action.hasMore ?? view.hasMore,
  };
}

let tempCounter = 0;
const tempId = () => `temp-${Date.now()}-${(tempCounter += 1)}`;

/**
 * Everything the chat screen does with data (spec §4): history (page 1 replaces, older pages prepend), the
 * optimistic send with retry, realtime messages with de-duplication, the typing indicator and staleness.
 */
export function useChat() {
  const { status, isVerified } = useSession();
  const canUse = status === 'signedIn' && isVerified;
  const [view, dispatch] = useReducer(viewReducer, { items: [], page: 1, hasMore: false });
  const { items } = view;
  const [typing, setTyping] = useState('');
  const [justReceived, setJustReceived] = useState(0);
  const [olderLoad, setOlderLoad] = useState({ loading: false, error: null as string | null });
  const older = { page: view.page, hasMore: view.hasMore, ...olderLoad };
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastActivity = useRef(0);
  const connection = useRealtimeConnection();
  const queryClient = useQueryClient();

  // Page 1: two attempts, no user-facing error; stale after an hour, refreshed when the page is visible again.
  const first = useQuery({
    queryKey: chatKeys.firstPage,
    queryFn: () => fetchHistoryPage(1),
    enabled: canUse,
    staleTime: STALE_TIME_MS,
    retry: INITIAL_LOAD_ATTEMPTS - 1,
    refetchOnWindowFocus: true,
  });
  useEffect(() => {
    if (!first.data) return;
    dispatch({
      type: 'replace',
      messages: first.data.messages,
      page: 1,
      hasMore: first.data.pagination.hasMore,
    });
  }, [first.data]);

  const { refetch } = first;
  // "Please refresh the page": the messages are refreshed and the error cleared (spec §4).
  useEffect(() => {
    if (connection.error !== MESSAGES.refreshPageToReconnect) return;
    void refetch();
    realtime.clearError();
  }, [connection.error, refetch]);

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

  useRealtimeEvent('ReceiveMessage', (message) => {
    dispatch({ type: 'append', message });
    if (message.role === 'agent') {
      clearTyping();
      setJustReceived((n) => n + 1);
    }
    lastActivity.current = Date.now();
  });

  useRealtimeEvent('ReceiveMessageUpdate', (message) => {
    dispatch({ type: 'update', message });
    // An alert changes when someone is confirmed or rejected: its correction buttons read again.
    for (const id of message.source_activity_uuid_list)
      void queryClient.invalidateQueries({ queryKey: recognitionKey(id) });
  });

  const loadOlder = useCallback(async () => {
    if (!view.hasMore || olderLoad.loading) return;
    const page = view.page + 1;
    setOlderLoad({ loading: true, error: null });
    try {
      const result = await fetchHistoryPage(page);
      dispatch({ type: 'prepend', messages: result.messages, page, hasMore: result.pagination.hasMore });
      setOlderLoad({ loading: false, error: null });
    } catch {
      setOlderLoad({ loading: false, error: MESSAGES.loadOlderMessagesFailed });
    }
  }, [view.hasMore, view.page, olderLoad.loading]);

  const deliver = useCallback(async (item: ChatItem) => {
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
  }, []);

  /** Sends only a non-empty text, for a signed-in verified user (spec §5); otherwise nothing happens. */
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
    [canUse, deliver],
  );

  const retry = useCallback(
    (item: ChatItem) => {
      if (!item.localId) return;
      dispatch({ type: 'retry', localId: item.localId });
      void deliver(item);
    },
    [deliver],
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
