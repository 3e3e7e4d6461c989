import type { MemoryCategory } from '@homesitter/contract/runtime';
import { MESSAGES } from '@homesitter/contract/runtime';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { MemoryDetailSkeleton } from '../../shared/ui/Skeletons';
import { useDeleteMemory, useMemory, useSaveMemory } from './api';
import { categoryFromParam, memorySubtitle, memoryTitle } from './categories';
import { ExpiryControl } from './ExpiryControl';
import { MemoryForm } from './MemoryForm';
import { MemoryHeader, memoryPageClass } from './MemoryHeader';
import { PendingImageAction } from './PendingImageAction';
import { PhotoGrid } from './PhotoGrid';
import { useSites } from '../cameras/api';

function Detail({ category, id }: { category: MemoryCategory; id: string }) {
  const { t } = useTranslation('memories');
  const { t: tr } = useTranslation();
  const navigate = useNavigate();
  const memory = useMemory(category, id);
  const save = useSaveMemory(category, id);
  const remove = useDeleteMemory(category, id);
  const sites = useSites();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const back = `/memories?category=${category}`;

  if (memory.isPending) return <MemoryDetailSkeleton category={category} />;
  if (!memory.data) {
    return (
      <div className={memoryPageClass}>
        <MemoryHeader title={t(`categories.${category}`)} back={back} />
        <Alert>{errorText(tr, memory.error, MESSAGES.loadMemoryFailed)}</Alert>
      </div>
    );
  }
  const m = memory.data;
  const siteNames = (sites.data ?? []).filter((s) => m.property_associations.includes(s.site_uuid));
  const subtitle = memorySubtitle(m);

  return (
    <div className={memoryPageClass}>
      <MemoryHeader
        title={memoryTitle(m)}
        back={back}
        actions={
          <Button variant="ghost" aria-label={t('delete')} onClick={() => setConfirming(true)}>
            <Trash2 className="size-5" aria-hidden="true" />
          </Button>
        }
      />
      <div className="flex flex-col gap-6">
        <PendingImageAction memory={m} />
        <ExpiryControl memory={m} />
        <Card>
          {editing ? (
            <MemoryForm
              category={category}
              memory={m}
              busy={save.isPending}
              onCancel={() => setEditing(false)}
              onSubmit={(body) => save.mutate(body, { onSuccess: () => setEditing(false) })}
            />
          ) : (
            <div className="flex flex-col gap-3">
              <div className="flex items-start gap-3">
                <div className="flex-1">
                  <p className="text-lg font-medium text-white">{memoryTitle(m)}</p>
                  {subtitle ? <p className="text-sm text-slate-400">{subtitle}</p> : null}
                </div>
                <Button variant="secondary" onClick={() => setEditing(true)}>
                  <Pencil className="size-4" aria-hidden="true" />
                  {t('edit')}
                </Button>
              </div>
              {m.notes && m.category !== 'people' ? <p className="text-slate-300">{m.notes}</p> : null}
              {siteNames.length > 0 ? (
                <ul aria-label={t('properties.label')} className="flex flex-wrap gap-2">
                  {siteNames.map((s) => (
                    <li
                      key={s.site_uuid}
                      className="rounded-full bg-slate-800 px-3 py-1 text-sm text-slate-200"
                    >
                      {s.name}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          )}
        </Card>
        <Card>
          <PhotoGrid memory={m} />
        </Card>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('deleteTitle')}
        description={t('deleteDescription', { name: memoryTitle(m) })}
        confirmLabel={t('delete')}
        tone="danger"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notify.success(t('deleted'));
              void navigate(back, { replace: true });
            },
          })
        }
      />
    </div>
  );
}

/** docs/product.md §2 memories/{category}/{id}: the memory, edited in place, with its photos and expiry. */
export default function MemoryDetailPage() {
  const params = useParams();
  const category = categoryFromParam(params.category);
  if (!category || !params.id) return <Navigate to="/memories" replace />;
  return <Detail key={params.id} category={category} id={params.id} />;
}
