import { MESSAGES } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { realtime } from '../../shared/lib/realtime';
import {
  useRealtimeConnection,
  useRealtimeEvent,
  useRealtimeReconnected,
} from '../../shared/lib/useRealtime';
import { useProfile } from '../user/profile';
import { chatKeys } from './chatApi';
import { updateChat } from './chatCache';
import { recognitionKey } from './recognitionApi';

/**
 * Keeps the cached conversation current for the whole signed-in session, whichever screen is shown: live
 * messages and changes go into the cache, and after the connection was lost the history is fetched again so
 * nothing sent meanwhile is missing (docs/product.md §4). When the profile's language changes, the history
 * is fetched again too: the server writes alerts and captions in the reader's language as it is now.
 * Rendered once, by the signed-in layout.
 */
export function ChatLiveSync() {
  const queryClient = useQueryClient();
  const connection = useRealtimeConnection();

  useRealtimeEvent('ReceiveMessage', (message) => updateChat(queryClient, { type: 'append', message }));

  useRealtimeEvent('ReceiveMessageUpdate', (message) => {
    updateChat(queryClient, { type: 'update', message });
    // An alert changes when someone is confirmed or rejected: its correction buttons read again.
    for (const id of message.source_activity_uuid_list)
      void queryClient.invalidateQueries({ queryKey: recognitionKey(id) });
  });

  useRealtimeReconnected(() => void queryClient.invalidateQueries({ queryKey: chatKeys.firstPage }));

  const language = useProfile().data?.preferred_language;
  const readIn = useRef(language);
  useEffect(() => {
    if (!language || language === readIn.current) return;
    const first = readIn.current === undefined;
    readIn.current = language;
    if (!first) void queryClient.invalidateQueries({ queryKey: chatKeys.firstPage });
  }, [language, queryClient]);

  // "Please refresh the page": the messages are refreshed and the error cleared (docs/product.md §4).
  useEffect(() => {
    if (connection.error !== MESSAGES.refreshPageToReconnect) return;
    void queryClient.invalidateQueries({ queryKey: chatKeys.firstPage });
    realtime.clearError();
  }, [connection.error, queryClient]);

  return null;
}
