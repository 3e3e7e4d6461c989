import { MESSAGES, type MemoryCategory } from '@homesitter/contract/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { uploadMemoryImage, useRefreshMemory } from './api';

/** Uploads files one after the other, with the progress of the current one. */
export function usePhotoUpload(category: MemoryCategory, id: string) {
  const { t } = useTranslation();
  const refresh = useRefreshMemory(category, id);
  const [progress, setProgress] = useState<number | null>(null);

  async function upload(files: Blob[]): Promise<boolean> {
    let ok = true;
    for (const file of files) {
      setProgress(0);
      try {
        await uploadMemoryImage(category, id, file, setProgress);
      } catch (error) {
        ok = false;
        notify.error(errorText(t, error, MESSAGES.uploadImageFailed));
        break;
      }
    }
    setProgress(null);
    await refresh().catch(() => undefined);
    return ok;
  }

  return { upload, progress, uploading: progress !== null };
}
