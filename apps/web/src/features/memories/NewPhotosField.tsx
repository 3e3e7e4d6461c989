import { DEFAULT_MEMORY_PHOTO_LIMIT } from '@homesitter/contract/runtime';
import { ImagePlus } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Photos picked while a memory is being made: they are uploaded once it exists (an image needs its memory),
 * so a person can be recognised from the start instead of after a second visit.
 */
export function NewPhotosField({ files, onChange }: { files: File[]; onChange: (files: File[]) => void }) {
  const { t } = useTranslation('memories');
  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const picked = [...files, ...(e.target.files ?? [])].slice(0, DEFAULT_MEMORY_PHOTO_LIMIT);
    e.target.value = '';
    onChange(picked);
  };
  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium text-slate-200">{t('photos.title')}</span>
      <div className="flex flex-wrap items-center gap-3">
        <label className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg bg-slate-800 px-3 text-sm font-medium text-slate-100 ring-1 ring-slate-700 focus-within:outline-2 focus-within:outline-brand-400 hover:bg-slate-700">
          <ImagePlus className="size-4" aria-hidden="true" />
          {t('photos.add')}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
            multiple
            onChange={onFiles}
            className="sr-only"
            data-testid="new-photo-input"
          />
        </label>
        <span className="text-sm text-slate-400" aria-live="polite">
          {files.length > 0 ? t('photos.picked', { count: files.length }) : t('photos.none')}
        </span>
        {files.length > 0 ? (
          <button
            type="button"
            onClick={() => onChange([])}
            className="text-sm text-brand-400 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
          >
            {t('photos.clear')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
