import type { ReplyToMessage } from '@homesitter/contract';
import { ImageIcon, SendHorizontal, X } from 'lucide-react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_MESSAGE_MAX_LENGTH } from '@homesitter/contract/runtime';
import { Button } from '../../shared/ui/Button';

interface Props {
  canSend: boolean;
  replyTo: ReplyToMessage | null;
  onCancelReply: () => void;
  pendingImage: string | null;
  onRemoveImage: () => void;
  onSend: (text: string) => boolean;
}

/** The message field: Enter sends, Shift+Enter breaks the line; a quoted reply and a pending image show above. */
export function Composer({ canSend, replyTo, onCancelReply, pendingImage, onRemoveImage, onSend }: Props) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const disabled = !canSend || text.trim() === '';

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (disabled) return;
    if (onSend(text)) setText('');
    field.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  return (
    <form
      onSubmit={submit}
      className="border-t border-slate-800 bg-slate-950/80 px-4 py-3 backdrop-blur md:px-6"
    >
      {replyTo ? (
        <div className="mb-2 flex items-start gap-2 rounded-lg bg-slate-900 px-3 py-2 text-xs ring-1 ring-slate-800">
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-brand-300">
              {t('reply.replyingTo', {
                name: replyTo.role === 'user' ? t('message.you') : t('message.agent'),
              })}
            </p>
            <p className="truncate text-slate-300">{replyTo.text}</p>
          </div>
          <DismissButton label={t('reply.cancel')} onClick={onCancelReply} />
        </div>
      ) : null}
      {pendingImage ? (
        <div className="mb-2 flex items-center gap-3 rounded-lg bg-slate-900 px-3 py-2 text-xs ring-1 ring-slate-800">
          <img src={pendingImage} alt="" className="size-10 rounded object-cover" />
          <span className="flex flex-1 items-center gap-1 text-slate-300">
            <ImageIcon className="size-3.5" aria-hidden="true" />
            {t('image.pending')}
          </span>
          <DismissButton label={t('image.remove')} onClick={onRemoveImage} />
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <label htmlFor="chat-input" className="sr-only">
          {t('composer.label')}
        </label>
        <textarea
          id="chat-input"
          ref={field}
          rows={1}
          value={text}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={canSend ? t('composer.placeholder') : t('composer.unverified')}
          disabled={!canSend}
          className="max-h-40 min-h-11 flex-1 resize-none rounded-xl bg-slate-900 px-4 py-2.5 text-sm text-white ring-1 ring-slate-700 placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-400 disabled:opacity-60"
        />
        <Button
          type="submit"
          disabled={disabled}
          aria-label={t('composer.send')}
          className="size-11 shrink-0 px-0"
        >
          <SendHorizontal className="size-5" aria-hidden="true" />
        </Button>
      </div>
    </form>
  );
}

/** The small "×" that drops the quoted reply or the pending image. */
function DismissButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded p-1 text-slate-400 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
    >
      <X className="size-4" aria-hidden="true" />
    </button>
  );
}
