import type { Memory } from '@homesitter/contract';
import { DEFAULT_MEMORY_PHOTO_LIMIT } from '@homesitter/contract/runtime';
import { Camera, ImagePlus, Trash2 } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';
import { useDeleteImage } from './api';
import { usePhotoUpload } from './usePhotoUpload';

const pickerClass =
  'inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg bg-slate-800 px-3 text-sm font-medium text-slate-100 ring-1 ring-slate-700 hover:bg-slate-700 focus-within:outline-2 focus-within:outline-brand-400';

/** Photos of a memory: grid, delete, upload from the camera or a file with progress, and the limit. */
export function PhotoGrid({ memory }: { memory: Memory }) {
  const { t } = useTranslation('memories');
  const remove = useDeleteImage(memory.category, memory.memory_uuid);
  const { upload, progress, uploading } = usePhotoUpload(memory.category, memory.memory_uuid);
  const fileInput = useRef<HTMLInputElement>(null);
  const limit = DEFAULT_MEMORY_PHOTO_LIMIT;
  const full = memory.images.length >= limit;

  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])].slice(0, limit - memory.images.length);
    e.target.value = '';
    if (files.length > 0) void upload(files);
  };

  return (
    <section aria-labelledby="photos-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="photos-title" className="flex-1 text-lg font-semibold text-white">
          {t('photos.title')}
        </h2>
        <span className="text-sm text-slate-400">
          {t('photos.count', { count: memory.images.length, limit })}
        </span>
      </div>
      {memory.images.length > 0 ? (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {memory.images.map((image, i) => (
            <li
              key={image.id}
              className="group relative aspect-square overflow-hidden rounded-xl bg-slate-800"
            >
              <a href={image.signedUrl} target="_blank" rel="noreferrer">
                <img
                  src={image.thumbnailUrl}
                  alt={t('photos.alt', { index: i + 1 })}
                  className="size-full object-cover"
                />
              </a>
              <button
                type="button"
                aria-label={t('photos.delete', { index: i + 1 })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(image.id)}
                className="absolute top-1.5 right-1.5 rounded-full bg-slate-950/80 p-1.5 text-slate-200 opacity-90 hover:bg-red-600 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400 sm:opacity-0 sm:group-hover:opacity-100 sm:focus-visible:opacity-100"
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-400">{t('photos.none')}</p>
      )}
      {progress !== null ? (
        <div className="flex items-center gap-3">
          <progress
            className="h-2 flex-1 overflow-hidden rounded-full [&::-moz-progress-bar]:bg-brand-500 [&::-webkit-progress-bar]:bg-slate-800 [&::-webkit-progress-value]:bg-brand-500"
            max={1}
            value={progress}
            aria-label={t('photos.uploading')}
          />
          <span className="text-sm text-slate-300">{Math.round(progress * 100)}%</span>
        </div>
      ) : null}
      {full ? (
        <p className="text-sm text-amber-300">{t('photos.limitReached', { limit })}</p>
      ) : (
        <div className={cn('flex flex-wrap gap-2', uploading && 'pointer-events-none opacity-60')}>
          <label className={pickerClass}>
            <ImagePlus className="size-4" aria-hidden="true" />
            {t('photos.add')}
            <input
              ref={fileInput}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
              multiple
              disabled={uploading}
              onChange={onFiles}
              className="sr-only"
              data-testid="photo-input"
            />
          </label>
          <label className={cn(pickerClass, 'sm:hidden')}>
            <Camera className="size-4" aria-hidden="true" />
            {t('photos.takePhoto')}
            <input
              type="file"
              accept="image/*"
              capture="environment"
              disabled={uploading}
              onChange={onFiles}
              className="sr-only"
            />
          </label>
        </div>
      )}
    </section>
  );
}
