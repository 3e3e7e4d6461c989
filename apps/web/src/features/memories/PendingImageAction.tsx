import type { Memory } from '@homesitter/contract';
import { DEFAULT_MEMORY_PHOTO_LIMIT, MESSAGES } from '@homesitter/contract/runtime';
import { ImagePlus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { clearPendingImageUrl, getPendingImageUrl } from '../../shared/lib/pendingImage';
import { usePhotoUpload } from './usePhotoUpload';

/** The chat's "save this image" flow: adds the waiting image to this memory. */
export function PendingImageAction({ memory }: { memory: Memory }) {
  const { t } = useTranslation('memories');
  const { t: tr } = useTranslation();
  const [url, setUrl] = useState(getPendingImageUrl);
  const { upload, uploading } = usePhotoUpload(memory.category, memory.memory_uuid);
  if (!url || memory.images.length >= DEFAULT_MEMORY_PHOTO_LIMIT) return null;

  async function add(source: string) {
    try {
      const response = await fetch(source);
      if (!response.ok) throw new Error(MESSAGES.uploadImageFailed);
      if (await upload([await response.blob()])) {
        clearPendingImageUrl();
        setUrl(null);
        notify.success(t('pendingImage.added'));
      }
    } catch (error) {
      notify.error(errorText(tr, error, MESSAGES.uploadImageFailed));
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3 rounded-2xl bg-brand-500/10 p-3 ring-1 ring-brand-500/40">
      <img src={url} alt="" className="size-12 rounded-lg object-cover" />
      <p className="flex-1 text-sm text-slate-200">{t('pendingImage.offer')}</p>
      <Button variant="secondary" busy={uploading} onClick={() => void add(url)}>
        <ImagePlus className="size-4" aria-hidden="true" />
        {t('pendingImage.add')}
      </Button>
    </div>
  );
}
