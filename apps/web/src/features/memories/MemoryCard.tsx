import type { Memory } from '@homesitter/contract';
import { Clock, ImageOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CATEGORY_ICONS, memorySubtitle, memoryTitle } from './categories';
import { useProfile } from '../user/profile';
import { formatUntil } from './expiry';

/** A memory in the list: its first photo (or the category's icon), title, and expiry when short-term. */
export function MemoryCard({ memory }: { memory: Memory }) {
  const { t, i18n } = useTranslation('memories');
  const timeZone = useProfile().data?.timezone;
  const Icon = CATEGORY_ICONS[memory.category];
  const cover = memory.images[0];
  const title = memoryTitle(memory);
  const subtitle = memorySubtitle(memory);
  return (
    <li>
      <Link
        to={`/memories/${memory.category}/${memory.memory_uuid}`}
        className="group flex h-full flex-col overflow-hidden rounded-2xl bg-slate-900 ring-1 ring-slate-800 transition hover:ring-brand-500 focus-visible:outline-2 focus-visible:outline-brand-400"
      >
        <div className="relative aspect-square bg-slate-800">
          {cover ? (
            <img
              src={cover.thumbnailUrl}
              alt=""
              loading="lazy"
              className="size-full object-cover transition group-hover:scale-[1.02]"
            />
          ) : (
            <div className="flex size-full items-center justify-center text-slate-500">
              {memory.category === 'other' ? (
                <Icon className="size-10" aria-hidden="true" />
              ) : (
                <ImageOff className="size-8" aria-hidden="true" />
              )}
            </div>
          )}
          {memory.images.length > 1 ? (
            <span className="absolute right-2 bottom-2 rounded-full bg-slate-950/80 px-2 py-0.5 text-xs text-slate-200">
              {t('photoCount', { count: memory.images.length })}
            </span>
          ) : null}
        </div>
        <div className="flex flex-1 flex-col gap-1 p-3">
          <p className="line-clamp-2 font-medium text-white">{title}</p>
          {subtitle ? <p className="line-clamp-1 text-sm text-slate-400">{subtitle}</p> : null}
          {memory.expires_at ? (
            <p className="mt-auto flex items-center gap-1 text-xs text-amber-300">
              <Clock className="size-3.5" aria-hidden="true" />
              {t('until', { date: formatUntil(memory.expires_at, i18n.language, timeZone) })}
            </p>
          ) : null}
        </div>
      </Link>
    </li>
  );
}
