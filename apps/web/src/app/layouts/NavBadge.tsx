import { useTranslation } from 'react-i18next';
import { useUnreadChat } from '../../features/chat/unread';
import { cn } from '../../shared/ui/cn';

/** The count of new chat messages on the Chat entry; read out with the entry's name. */
export function ChatBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  const count = useUnreadChat();
  if (count === 0) return null;
  return (
    <span
      data-testid="chat-unread"
      className={cn(
        'min-w-5 rounded-full bg-brand-500 px-1.5 text-center text-xs leading-5 font-semibold text-slate-950',
        className,
      )}
    >
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{t('nav.unread', { count })}</span>
    </span>
  );
}
