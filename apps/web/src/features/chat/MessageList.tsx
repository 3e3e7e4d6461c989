import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../shared/ui/Button';
import type { ChatItem } from './chatState';
import { MessageBubble } from './MessageBubble';
import type { ChatController } from './useChat';

/** Within this distance of the bottom, the user is reading the newest messages and new ones follow. */
const NEAR_BOTTOM_PX = 200;

interface Props {
  chat: ChatController;
  highlightId: string | null;
  /** The profile's time zone, which the messages' stamps are shown in. */
  timeZone: string | null | undefined;
  onReply: (item: ChatItem) => void;
}

/**
 * The conversation, newest at the bottom. Older pages load when the top comes into view (only when there are
 * more and none is loading) and keep what was on screen in place; new messages scroll into view.
 */
export function MessageList({ chat, highlightId, timeZone, onReply }: Props) {
  const { t } = useTranslation('chat');
  const scroller = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const anchor = useRef<{ first: string | undefined; fromBottom: number } | null>(null);
  const { items, older, loadOlder, reload, initialLoading } = chat;
  const first = items[0]?.message_uuid;
  const last = items.at(-1)?.message_uuid;

  // Before older messages are prepended, remember the distance from the bottom; restore it after.
  useLayoutEffect(() => {
    const el = scroller.current;
    const saved = anchor.current;
    if (!el) return;
    if (saved && saved.first !== first) el.scrollTop = el.scrollHeight - saved.fromBottom;
    anchor.current = { first, fromBottom: el.scrollHeight - el.scrollTop };
  });

  // Whether the user was near the bottom, as of their last scroll: read before a new message renders, since
  // a tall one (a picture, a video, a long answer) would push the bottom away from them by itself.
  const nearBottom = useRef(true);
  const onScroll = () => {
    const el = scroller.current;
    if (el) nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  };
  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    nearBottom.current = true;
    anchor.current = { first: anchor.current?.first, fromBottom: el.scrollHeight - el.scrollTop };
  }, []);

  // A new last message (ours, or one that arrives while the user was near the bottom) scrolls into view.
  const lastSeen = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (!last || last === lastSeen.current) return;
    const firstRender = lastSeen.current === undefined;
    lastSeen.current = last;
    if (firstRender && highlightId) nearBottom.current = false;
    else if (firstRender || nearBottom.current || items.at(-1)?.role === 'user') toBottom();
  }, [last, items, highlightId, toBottom]);

  // Pictures and videos lay out after their message rendered, and the typing indicator or the keyboard
  // shrink the list: while the user is at the bottom, stay there.
  useEffect(() => {
    const content = list.current;
    const el = scroller.current;
    if (!content || !el) return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current) toBottom();
    });
    observer.observe(content);
    observer.observe(el);
    return () => observer.disconnect();
  }, [toBottom]);

  useEffect(() => {
    const el = top.current;
    if (!el || !older.hasMore || older.loading || older.error) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadOlder();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [older.hasMore, older.loading, older.error, loadOlder]);

  // The message named in navigation state is scrolled to and highlighted for a moment. One the list does not
  // hold yet (a tapped push while the chat was already open) makes the history load again, once.
  const highlighted = useRef<string | null>(null);
  const reloadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!highlightId || highlighted.current === highlightId) return;
    const el = document.getElementById(`message-${highlightId}`);
    if (!el) {
      if (!initialLoading && reloadedFor.current !== highlightId) {
        reloadedFor.current = highlightId;
        reload();
      }
      return;
    }
    highlighted.current = highlightId;
    el.scrollIntoView({ block: 'center' });
    el.dataset.highlighted = 'true';
    setTimeout(() => delete el.dataset.highlighted, 4_000);
  }, [highlightId, items, initialLoading, reload]);

  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      data-testid="chat-scroller"
      className="flex-1 overflow-y-auto px-4 py-4 md:px-6"
    >
      <div ref={top} aria-hidden="true" className="h-px" />
      {older.hasMore || older.loading || older.error ? (
        <div className="mb-4 flex flex-col items-center gap-2">
          {older.error ? (
            <p role="alert" className="text-sm text-red-300">
              {t('older.failed')}
            </p>
          ) : null}
          <Button variant="secondary" className="h-9" busy={older.loading} onClick={() => void loadOlder()}>
            {older.loading ? t('older.loading') : older.error ? t('older.retry') : t('older.load')}
          </Button>
        </div>
      ) : null}
      <ol ref={list} aria-label={t('title')} className="flex flex-col gap-4">
        {items.map((item) => (
          <MessageBubble
            key={item.localId ?? item.message_uuid}
            item={item}
            timeZone={timeZone}
            onReply={onReply}
            onRetry={chat.retry}
          />
        ))}
      </ol>
    </div>
  );
}
