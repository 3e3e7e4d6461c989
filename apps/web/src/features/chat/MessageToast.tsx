import { TIP_TOAST_DURATION_MS } from '@homesitter/contract/runtime';
import type { ChatMessage } from '@homesitter/contract';
import { MessageCircle } from 'lucide-react';
import { thumbnailFor } from '../../shared/lib/thumbnailCache';

export interface MessageToastContent {
  title: string;
  text: string;
  picture: string | undefined;
  /** What a tap does, read out after the text. */
  action: string;
}

/** The message's picture: its first image, else the poster of its first clip (an alert's snapshot). */
export function pictureOf(message: ChatMessage): string | undefined {
  const video = message.videos[0];
  return message.image_urls[0] ?? (video ? thumbnailFor(video) : undefined);
}

function MessageToastCard({ content, onOpen }: { content: MessageToastContent; onOpen: () => void }) {
  return (
    <button
      type="button"
      data-testid="message-toast"
      onClick={onOpen}
      className="flex w-full items-center gap-3 rounded-xl border border-slate-700 bg-slate-900 p-3 text-left shadow-xl focus-visible:outline-2 focus-visible:outline-brand-400"
    >
      {content.picture ? (
        <img src={content.picture} alt="" className="size-16 shrink-0 rounded-lg object-cover" />
      ) : (
        <MessageCircle className="size-6 shrink-0 text-brand-400" aria-hidden="true" />
      )}
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="text-sm font-semibold text-white">{content.title}</span>
        <span className="line-clamp-2 text-sm text-slate-300">{content.text}</span>
        <span className="text-xs font-medium text-brand-400">{content.action}</span>
      </span>
    </button>
  );
}

/**
 * A message from the home sitter shown wherever the user is: a tap opens it in the chat. It stays the tip's 5 s,
 * long enough to look at a picture (docs/product.md §8 keeps plain toasts at 3 s).
 */
export function showMessageToast(content: MessageToastContent, open: () => void) {
  void import('sonner').then(({ toast }) =>
    toast.custom(
      (id) => (
        <MessageToastCard
          content={content}
          onOpen={() => {
            toast.dismiss(id);
            open();
          }}
        />
      ),
      { duration: TIP_TOAST_DURATION_MS },
    ),
  );
}
