import { MEMORY_CATEGORIES, MESSAGES, type MemoryCategory } from '@homesitter/contract/runtime';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { Alert } from '../../shared/ui/Alert';
import { cn } from '../../shared/ui/cn';
import { MemoriesListSkeleton } from '../../shared/ui/Skeletons';
import { useMemories } from './api';
import { AmnesiaCard } from './AmnesiaCard';
import { CATEGORY_ICONS, categoryFromParam, memoriesOf } from './categories';
import { MemoryCard } from './MemoryCard';
import { PendingImageNotice } from './PendingImageNotice';

export const primaryLink =
  'inline-flex h-11 items-center justify-center gap-2 rounded-lg bg-brand-500 px-4 text-sm font-semibold text-slate-950 transition-colors hover:bg-brand-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/** docs/product.md §2 memories: the four categories with counts, the chosen one's memories with their photos. */
export default function MemoriesPage() {
  const { t } = useTranslation('memories');
  const { t: tr } = useTranslation();
  const memories = useMemories();
  const [params, setParams] = useSearchParams();
  const category: MemoryCategory = categoryFromParam(params.get('category') ?? undefined) ?? 'people';

  if (memories.isPending) return <MemoriesListSkeleton />;
  const list = memoriesOf(memories.data, category);

  return (
    <div className="mx-auto w-full max-w-5xl p-4 md:p-6">
      <header className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="flex-1 text-2xl font-semibold tracking-tight text-white">{t('title')}</h1>
        <Link to={`/memories/${category}/new`} className={primaryLink}>
          <Plus className="size-4" aria-hidden="true" />
          {t(`new.${category}`)}
        </Link>
      </header>

      <PendingImageNotice />
      <AmnesiaCard />

      {memories.isError ? (
        <div className="mb-4">
          <Alert>{errorText(tr, memories.error, MESSAGES.loadMemoriesFailed)}</Alert>
        </div>
      ) : null}

      <div role="tablist" aria-label={t('categoriesLabel')} className="mb-6 flex gap-2 overflow-x-auto pb-1">
        {MEMORY_CATEGORIES.map((c) => {
          const Icon = CATEGORY_ICONS[c];
          const selected = c === category;
          return (
            <button
              key={c}
              type="button"
              role="tab"
              id={`tab-${c}`}
              aria-selected={selected}
              aria-controls="memories-panel"
              onClick={() => setParams({ category: c }, { replace: true })}
              className={cn(
                'inline-flex h-10 shrink-0 items-center gap-2 rounded-full px-4 text-sm font-medium ring-1 transition-colors focus-visible:outline-2 focus-visible:outline-brand-400',
                selected
                  ? 'bg-brand-500 text-slate-950 ring-brand-500'
                  : 'bg-slate-900 text-slate-200 ring-slate-700 hover:bg-slate-800',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {t(`categories.${c}`)}
              <span
                className={cn(
                  'rounded-full px-1.5 text-xs',
                  selected ? 'bg-slate-950/20' : 'bg-slate-800 text-slate-300',
                )}
              >
                {memoriesOf(memories.data, c).length}
              </span>
            </button>
          );
        })}
      </div>

      <section id="memories-panel" role="tabpanel" aria-labelledby={`tab-${category}`}>
        {list.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-slate-700 p-10 text-center">
            <p className="text-slate-300">{t(`empty.${category}`)}</p>
          </div>
        ) : (
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4">
            {list.map((m) => (
              <MemoryCard key={m.memory_uuid} memory={m} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
