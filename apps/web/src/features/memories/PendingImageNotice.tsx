import { ImagePlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { getPendingImageUrl } from '../../shared/lib/pendingImage';

/** The chat's "save this image" flow: while an image waits, the list says to pick a memory for it. */
export function PendingImageNotice() {
  const { t } = useTranslation('memories');
  const url = getPendingImageUrl();
  if (!url) return null;
  return (
    <div
      role="status"
      className="mb-6 flex items-center gap-3 rounded-2xl bg-brand-500/10 p-3 ring-1 ring-brand-500/40"
    >
      <img src={url} alt="" className="size-12 rounded-lg object-cover" />
      <p className="flex-1 text-sm text-slate-200">
        <ImagePlus className="mr-1 inline size-4 text-brand-400" aria-hidden="true" />
        {t('pendingImage.pick')}
      </p>
    </div>
  );
}
