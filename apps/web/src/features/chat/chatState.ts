import type { ChatMessage } from '@homesitter/contract';

/** A message on screen: the server's, or one of ours still being sent (docs/product.md §3 isPending, error). */
export interface ChatItem extends ChatMessage {
  /** Set while the item is our optimistic copy (its temporary id). */
  localId?: string;
  isPending?: boolean;
  error?: boolean;
}

export type ChatAction =
  | { type: 'replace'; messages: ChatMessage[] }
  | { type: 'prepend'; messages: ChatMessage[] }
  | { type: 'append'; message: ChatMessage }
  | { type: 'update'; message: ChatMessage }
  | { type: 'pending'; item: ChatItem }
  | { type: 'confirm'; localId: string; message: ChatMessage }
  | { type: 'fail'; localId: string }
  | { type: 'retry'; localId: string };

/** docs/product.md §4: the same id, or without an id the same text and time, is the same message. */
export function isSameMessage(a: Pick<ChatMessage, 'message_uuid' | 'text' | 'date_time_utc'>, b: typeof a) {
  if (a.message_uuid && b.message_uuid) return a.message_uuid === b.message_uuid;
  return a.text === b.text && a.date_time_utc === b.date_time_utc;
}

const unsent = (items: ChatItem[]) => items.filter((i) => i.localId);

/**
 * The server's answer replaces our optimistic copy, keeping what only we know: our local time, and our images
 * and video when the server sends none, plus the reply we quoted (docs/product.md §4 "Sending a chat message").
 */
export function mergeConfirmed(local: ChatItem, server: ChatMessage): ChatItem {
  return {
    ...server,
    date_time_utc: local.date_time_utc,
    image_urls: server.image_urls.length ? server.image_urls : local.image_urls,
    videos: server.videos.length ? server.videos : local.videos,
    reply_to_message_uuid: server.reply_to_message_uuid ?? local.reply_to_message_uuid,
    reply_to_message: server.reply_to_message ?? local.reply_to_message,
    isPending: false,
    error: false,
  };
}

export function chatReducer(items: ChatItem[], action: ChatAction): ChatItem[] {
  switch (action.type) {
    case 'replace': {
      // Page 1 replaces the list. Kept: messages still being sent (or failed), at the end, and messages that
      // came live after the newest the server answered with (the fetch raced with them).
      const server = action.messages;
      const newest = Math.max(...server.map((m) => Date.parse(m.date_time_utc)), -Infinity);
      const inPage = (i: ChatItem) => server.some((m) => isSameMessage(m, i));
      const live = items.filter((i) => !i.localId && Date.parse(i.date_time_utc) > newest && !inPage(i));
      return [...server, ...live, ...unsent(items).filter((i) => !inPage(i))];
    }
    case 'prepend': {
      const older = action.messages.filter((m) => !items.some((i) => isSameMessage(i, m)));
      return [...older, ...items];
    }
    case 'append': {
      const m = action.message;
      if (items.some((i) => !i.localId && isSameMessage(i, m))) return items;
      // The echo of a message this tab is still sending: the answer to the send brings it (no flash of two).
      if (m.role === 'user' && items.some((i) => i.localId && i.isPending && i.text === m.text)) return items;
      return [...items, m];
    }
    case 'update': {
      const m = action.message;
      const shown = items.find((i) => !i.localId && i.message_uuid === m.message_uuid);
      if (!shown) return items;
      // A message we show changed (a correction, a richer text): it keeps its place.
      if (shown.date_time_utc === m.date_time_utc) return items.map((i) => (i === shown ? { ...m } : i));
      // It changed its time (an alert a newer event joined): it goes where the new time puts it, as the
      // history would order it, ahead of our messages still being sent.
      const rest = items.filter((i) => i !== shown);
      const at = Date.parse(m.date_time_utc);
      let index = rest.length;
      while (index > 0 && (rest[index - 1]!.localId || Date.parse(rest[index - 1]!.date_time_utc) > at))
        index -= 1;
      return [...rest.slice(0, index), { ...m }, ...rest.slice(index)];
    }
    case 'pending':
      return [...items, action.item];
    case 'confirm': {
      const local = items.find((i) => i.localId === action.localId);
      if (!local) return items;
      // The realtime echo of this very message may have arrived first: keep one copy, where ours was.
      const rest = items.filter(
        (i) => i.localId === action.localId || i.message_uuid !== action.message.message_uuid,
      );
      return rest.map((i) => (i.localId === action.localId ? mergeConfirmed(local, action.message) : i));
    }
    case 'fail':
      return items.map((i) => (i.localId === action.localId ? { ...i, isPending: false, error: true } : i));
    case 'retry':
      return items.map((i) => (i.localId === action.localId ? { ...i, isPending: true, error: false } : i));
  }
}
