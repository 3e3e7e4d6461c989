import { MESSAGES } from '@homesitter/contract/runtime';
import type { RealtimeSnapshot } from '../../shared/lib/realtime';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';

const DOT: Record<RealtimeSnapshot['state'], string> = {
  connected: 'bg-emerald-400',
  connecting: 'bg-amber-300 animate-pulse',
  reconnecting: 'bg-amber-300 animate-pulse',
  disconnecting: 'bg-slate-500',
  disconnected: 'bg-slate-500',
};

/** The realtime connection, discreetly: a dot and a word; an error only when it asks for a refresh. */
export function ConnectionStatus({ connection }: { connection: RealtimeSnapshot }) {
  const { t } = useTranslation('chat');
  return (
    <p
      role="status"
      data-testid="connection-status"
      data-state={connection.state}
      className="flex items-center gap-2 text-xs text-slate-400"
    >
      <span className={cn('size-2 rounded-full', DOT[connection.state])} aria-hidden="true" />
      {connection.error === MESSAGES.refreshPageToReconnect
        ? t('connection.refresh')
        : t(`connection.${connection.state}`)}
    </p>
  );
}

/** What the home sitter is doing (ReceiveProgressUpdate), until it answers, clears it, or 10 s pass. */
export function TypingIndicator({ text }: { text: string }) {
  const { t } = useTranslation('chat');
  if (!text) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="typing-indicator"
      className="flex items-center gap-2 px-4 pb-2 text-sm text-slate-300 md:px-6"
    >
      <span className="flex gap-1" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <span
            key={i}
            className="size-1.5 animate-bounce rounded-full bg-brand-400"
            style={{ animationDelay: `${i * 150}ms` }}
          />
        ))}
      </span>
      <span className="sr-only">{t('typing.label')}: </span>
      {text}
    </div>
  );
}
