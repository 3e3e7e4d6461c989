import type { Memory } from '@homesitter/contract';
import { Clock, Infinity as InfinityIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../shared/ui/Button';
import { useSaveMemory } from './api';
import { useProfile } from '../user/profile';
import { formatUntil } from './expiry';

/** docs/product.md §4 memory expiry: a short-term memory shows "until …" and can be kept forever. */
export function ExpiryControl({ memory }: { memory: Memory }) {
  const { t, i18n } = useTranslation('memories');
  const timeZone = useProfile().data?.timezone;
  const save = useSaveMemory(memory.category, memory.memory_uuid);
  if (!memory.expires_at) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-400">
        <InfinityIcon className="size-4" aria-hidden="true" />
        {t('longTerm')}
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-xl bg-amber-500/10 p-3 ring-1 ring-amber-500/40">
      <p className="flex flex-1 items-center gap-2 text-sm text-amber-200">
        <Clock className="size-4" aria-hidden="true" />
        {t('until', { date: formatUntil(memory.expires_at, i18n.language, timeZone) })}
      </p>
      <Button variant="secondary" busy={save.isPending} onClick={() => save.mutate({ expiration: null })}>
        {t('keepForever')}
      </Button>
    </div>
  );
}
