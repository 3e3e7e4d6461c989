import { useTranslation } from 'react-i18next';
import { cn } from './cn';
import { Spinner } from './Spinner';

function Bone({ className }: { className?: string }) {
  return <div className={cn('animate-pulse rounded-lg bg-slate-800', className)} />;
}

function SkeletonFrame({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div role="status" aria-label={label} aria-busy="true" className="mx-auto w-full max-w-5xl p-4 md:p-6">
      {children}
    </div>
  );
}

/** The generic placeholder: a spinner with loading text. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn(
        'flex flex-col items-center justify-center gap-3 text-slate-300',
        fullScreen ? 'min-h-dvh' : 'min-h-64 py-16',
      )}
    >
      <Spinner size="lg" className="text-brand-400" />
      <span className="text-sm">{t('common.loading')}</span>
    </div>
  );
}

export function HighlightsSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonFrame label={t('common.loading')}>
      <Bone className="mb-6 h-8 w-48" />
      <Bone className="mb-4 h-40 w-full" />
      {[0, 1, 2].map((i) => (
        <div key={i} className="mb-3 flex gap-3">
          <Bone className="h-20 w-32 shrink-0" />
          <div className="flex flex-1 flex-col gap-2">
            <Bone className="h-4 w-1/3" />
            <Bone className="h-4 w-full" />
            <Bone className="h-4 w-2/3" />
          </div>
        </div>
      ))}
    </SkeletonFrame>
  );
}

export function CamerasListSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonFrame label={t('common.loading')}>
      <Bone className="mb-6 h-8 w-40" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <div key={i} className="flex flex-col gap-2">
            <Bone className="aspect-video w-full" />
            <Bone className="h-4 w-1/2" />
          </div>
        ))}
      </div>
    </SkeletonFrame>
  );
}

export function ChatSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonFrame label={t('common.loading')}>
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className={cn('mb-4 flex', i % 2 ? 'justify-end' : 'justify-start')}>
          <Bone className={cn('h-16 rounded-2xl', i % 2 ? 'w-1/2' : 'w-2/3')} />
        </div>
      ))}
    </SkeletonFrame>
  );
}

export function MemoriesListSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonFrame label={t('common.loading')}>
      <div className="mb-6 flex gap-2">
        {[0, 1, 2, 3].map((i) => (
          <Bone key={i} className="h-9 w-24 rounded-full" />
        ))}
      </div>
      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {[0, 1, 2, 3, 4, 5, 6, 7].map((i) => (
          <Bone key={i} className="aspect-square w-full" />
        ))}
      </div>
    </SkeletonFrame>
  );
}

/** People and animals lead with a photo; vehicles with their details; other memories are text. */
export function MemoryDetailSkeleton({ category }: { category?: string }) {
  const { t } = useTranslation();
  const fields = category === 'vehicles' ? 5 : category === 'animals' ? 2 : 1;
  return (
    <SkeletonFrame label={t('common.loading')}>
      {category === 'other' ? null : <Bone className="mb-6 aspect-video w-full max-w-md" />}
      {Array.from({ length: fields }, (_, i) => (
        <Bone key={i} className="mb-3 h-11 w-full max-w-md" />
      ))}
      <Bone className="h-28 w-full max-w-md" />
    </SkeletonFrame>
  );
}
