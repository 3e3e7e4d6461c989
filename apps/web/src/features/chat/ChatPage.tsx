import type { ReplyToMessage } from '@homesitter/contract';
import { Menu, MessageCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '../../shared/ui/Button';
import { ChatSkeleton } from '../../shared/ui/Skeletons';
import { ConnectionStatus, TypingIndicator } from './ChatStatus';
import { Composer } from './Composer';
import { LinkedActivity } from './LinkedActivity';
import { MessageList } from './MessageList';
import { getPendingImageUrl, setPendingImageUrl } from '../../shared/lib/pendingImage';
import { setSidePanelOpen, useSidePanelOpen } from '../../shared/lib/sidePanel';
import { zoneToName } from '../../shared/lib/time';
import { useProfile } from '../user/profile';
import { useChat } from './useChat';

interface ChatLocationState {
  /** A message to scroll to and highlight (docs/product.md §2). */
  highlightMessageId?: string;
  messageId?: string;
  /** An image URL to save (deep link `saveImage?imageUrl=…`). */
  pendingImageUrl?: string;
}

export default function ChatPage() {
  const { t, ready } = useTranslation('chat');
  const { t: tApp } = useTranslation();
  const location = useLocation();
  const state = (location.state ?? {}) as ChatLocationState;
  const chat = useChat();
  const menuOpen = useSidePanelOpen();
  const timeZone = useProfile().data?.timezone;
  const namedZone = zoneToName(timeZone);
  const [replyTo, setReplyTo] = useState<ReplyToMessage | null>(null);
  const [pendingImage, setPendingImage] = useState<string | null>(() => {
    if (state.pendingImageUrl) setPendingImageUrl(state.pendingImageUrl);
    return state.pendingImageUrl ?? getPendingImageUrl();
  });

  const removeImage = () => {
    setPendingImageUrl(null);
    setPendingImage(null);
  };

  const send = (text: string) => {
    const sent = chat.send({ text, images: pendingImage ? [pendingImage] : [], replyTo });
    if (sent) {
      setReplyTo(null);
      if (pendingImage) removeImage();
    }
    return sent;
  };

  if (!ready) return <ChatSkeleton />;
  return (
    <div className="mx-auto flex h-[calc(100dvh-var(--safe-top,0px)-var(--banner-offset,0rem)-var(--content-bottom,0px))] w-full max-w-4xl flex-col lg:h-[calc(100dvh-var(--safe-top,0px)-var(--banner-offset,0rem))]">
      <header className="flex items-center gap-3 border-b border-slate-800 px-4 py-3 md:px-6">
        {/* The bottom bar makes room for the composer here: on small screens the menu is the way out. */}
        <button
          type="button"
          onClick={() => setSidePanelOpen(true)}
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          aria-label={tApp('nav.menu')}
          data-testid="chat-menu"
          className="-ml-2 rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400 lg:hidden"
        >
          <Menu className="size-6" aria-hidden="true" />
        </button>
        <div className="mr-auto">
          <h1 className="text-lg font-semibold text-white">{t('title')}</h1>
          <ConnectionStatus connection={chat.connection} />
        </div>
        {namedZone ? (
          <p className="text-xs text-slate-400" data-testid="time-zone-note">
            {t('timeZone', { zone: namedZone })}
          </p>
        ) : null}
      </header>
      {chat.initialLoading ? (
        <div className="flex-1 overflow-hidden">
          <ChatSkeleton />
        </div>
      ) : chat.items.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center">
          <MessageCircle className="size-10 text-brand-400" aria-hidden="true" />
          <h2 className="text-base font-semibold text-white">{t('empty.title')}</h2>
          <p className="max-w-sm text-sm text-slate-400">{t('empty.text')}</p>
          {chat.initialError ? (
            <Button variant="secondary" onClick={chat.reload}>
              {t('reload')}
            </Button>
          ) : null}
        </div>
      ) : (
        <MessageList
          chat={chat}
          highlightId={state.highlightMessageId ?? state.messageId ?? null}
          timeZone={timeZone}
          onReply={(item) =>
            setReplyTo({ message_uuid: item.message_uuid, text: item.text, role: item.role })
          }
        />
      )}
      <LinkedActivity />
      <TypingIndicator text={chat.typing} />
      <Composer
        canSend={chat.canSend}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        pendingImage={pendingImage}
        onRemoveImage={removeImage}
        onSend={send}
      />
    </div>
  );
}
