import { MESSAGES } from '@homesitter/contract/runtime';
import { Expand, History, Pencil, Radio, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { cn } from '../../shared/ui/cn';
import { SettingsHeader } from '../settings/SettingsHeader';
import { useCameraDetail, useRemoveCamera } from './api';
import { CameraSettingsForm } from './CameraSettingsForm';
import { DeleteHistory } from './DeleteHistory';
import { ConnectionSummary } from './ConnectionSummary';
import { NestCameraPanel } from './nest/NestCameraPanel';
import { CameraLiveView } from './live/CameraLiveView';
import { PastActivities } from './PastActivities';
import { RenameCameraDialog } from './RenameCameraDialog';
import { PrivateDrops } from './PrivateDrops';
import { StatusBadge } from './StatusBadge';
import { useCamerasRealtime } from './useCamerasRealtime';

type Tab = 'live' | 'past';

/** docs/product.md §2 camera detail: live and past views, the stream connection, settings, rename and removal. */
export default function CameraDetailPage() {
  const { name = '' } = useParams();
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const navigate = useNavigate();
  const camera = useCameraDetail(name, { followConfiguration: true });
  useCamerasRealtime();
  const remove = useRemoveCamera();
  const [tab, setTab] = useState<Tab>('live');
  const [renaming, setRenaming] = useState(false);
  const [removing, setRemoving] = useState(false);

  if (camera.isPending) return <PageSpinner />;
  if (camera.error || !camera.data) {
    return (
      <div className="mx-auto w-full max-w-3xl p-4 md:p-8">
        <SettingsHeader title={name} back="/cameras" />
        <Alert>{errorText(tr, camera.error, MESSAGES.loadCamerasFailed)}</Alert>
      </div>
    );
  }
  const data = camera.data;
  const viewPath = `/cameras/${encodeURIComponent(data.name)}/view`;

  return (
    <div className="mx-auto w-full max-w-3xl p-4 md:p-8">
      <SettingsHeader title={data.name} back="/cameras" />
      <div className="-mt-3 mb-5 flex flex-wrap items-center gap-2">
        <StatusBadge camera={data} />
        <PrivateDrops camera={data} className="text-sm" />
        <span className="flex-1" />
        <Link
          to={viewPath}
          className="inline-flex h-9 items-center gap-2 rounded-lg px-3 text-sm text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <Expand className="size-4" aria-hidden="true" />
          {t('detail.openView')}
        </Link>
        <Button variant="ghost" className="h-9" onClick={() => setRenaming(true)}>
          <Pencil className="size-4" aria-hidden="true" />
          {t('detail.rename')}
        </Button>
        <Button variant="ghost" className="h-9 text-red-300" onClick={() => setRemoving(true)}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t('detail.remove')}
        </Button>
      </div>

      <div role="tablist" aria-label={t('detail.views')} className="mb-3 flex gap-2">
        {(['live', 'past'] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            onClick={() => setTab(id)}
            className={cn(
              'inline-flex h-9 items-center gap-2 rounded-full px-4 text-sm font-medium ring-1 focus-visible:outline-2 focus-visible:outline-brand-400',
              tab === id
                ? 'bg-brand-500 text-slate-950 ring-brand-500'
                : 'bg-slate-900 text-slate-200 ring-slate-700 hover:bg-slate-800',
            )}
          >
            {id === 'live' ? (
              <Radio className="size-4" aria-hidden="true" />
            ) : (
              <History className="size-4" aria-hidden="true" />
            )}
            {t(`detail.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="mb-6">
        {tab === 'past' ? (
          <PastActivities cameraName={data.name} lastActivity={data.last_activity_date_time_utc} />
        ) : (
          <CameraLiveView camera={data} />
        )}
      </div>

      <div className="flex flex-col gap-4">
        {data.connection_type === 'nest' ? <NestCameraPanel camera={data} /> : null}
        {data.connection ? <ConnectionSummary connection={data.connection} /> : null}
        <CameraSettingsForm key={data.camera_uuid + data.name} camera={data} />
        <DeleteHistory cameraName={data.name} />
      </div>

      {renaming ? (
        <RenameCameraDialog
          name={data.name}
          onClose={() => setRenaming(false)}
          onRenamed={(newName) => {
            setRenaming(false);
            void navigate(`/cameras/${encodeURIComponent(newName)}`, { replace: true });
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('detail.removeTitle', { name: data.name })}
        description={t('detail.removeText')}
        confirmLabel={t('detail.removeConfirm')}
        tone="danger"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(data.name, {
            onSuccess: () => {
              notify.success(t('detail.removed', { name: data.name }));
              void navigate('/cameras', { replace: true });
            },
            onError: (error) => notify.error(errorText(tr, error, MESSAGES.updateCameraSettingsFailed)),
          })
        }
      />
    </div>
  );
}
