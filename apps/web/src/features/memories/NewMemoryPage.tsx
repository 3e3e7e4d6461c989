import { MESSAGES } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Card } from '../../shared/ui/Card';
import { refreshMemory, uploadMemoryImage, useSaveMemory } from './api';
import { categoryFromParam } from './categories';
import { MemoryForm } from './MemoryForm';
import { MemoryHeader, memoryPageClass } from './MemoryHeader';

function NewMemory({ category }: { category: NonNullable<ReturnType<typeof categoryFromParam>> }) {
  const { t } = useTranslation('memories');
  const { t: tr } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useSaveMemory(category);
  const [uploading, setUploading] = useState(false);
  const back = `/memories?category=${category}`;

  /** The photos picked with the form, one after the other; a failure is told and the rest is left out. */
  const uploadPhotos = async (id: string, photos: File[]) => {
    setUploading(true);
    try {
      for (const photo of photos) await uploadMemoryImage(category, id, photo, () => undefined);
    } catch (error) {
      notify.error(errorText(tr, error, MESSAGES.uploadImageFailed));
    }
    await refreshMemory(queryClient, category, id).catch(() => undefined);
  };

  return (
    <div className={memoryPageClass}>
      <MemoryHeader title={t(`new.${category}`)} back={back} />
      <Card>
        <MemoryForm
          category={category}
          busy={save.isPending || uploading}
          onCancel={() => void navigate(back)}
          onSubmit={(body, photos) =>
            save.mutate(body, {
              // Straight to the new memory, with the photos picked here already on it.
              onSuccess: (memory) => {
                const open = () =>
                  void navigate(`/memories/${category}/${memory.memory_uuid}`, { replace: true });
                if (photos.length === 0) open();
                else void uploadPhotos(memory.memory_uuid, photos).then(open);
              },
            })
          }
        />
      </Card>
    </div>
  );
}

/** docs/product.md §2 memories/{category}/new. */
export default function NewMemoryPage() {
  const category = categoryFromParam(useParams().category);
  if (!category) return <Navigate to="/memories" replace />;
  return <NewMemory category={category} />;
}
