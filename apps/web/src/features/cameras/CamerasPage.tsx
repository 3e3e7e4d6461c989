import { DndContext } from '@dnd-kit/core';
import type { Camera, Site } from '@homesitter/contract';
import { Camera as CameraIcon, FolderPlus, Plus, Settings2 } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { useMediaQuery } from '../../shared/lib/useMediaQuery';
import { MESSAGES } from '@homesitter/contract/runtime';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { CamerasListSkeleton } from '../../shared/ui/Skeletons';
import { useCameras, useSites } from './api';
import { NestOutcome } from './nest/NestOutcome';
import { AssociateMemoriesDialog, PropertyNameDialog } from './PropertyDialogs';
import { PropertyGroup } from './PropertyGroup';
import { useCameraDnd } from './useCameraDnd';
import { useCamerasRealtime } from './useCamerasRealtime';
import { useProperties } from './useProperties';

const linkButton =
  'inline-flex h-11 items-center justify-center gap-2 rounded-lg px-4 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

function groupCameras(cameras: Camera[], sites: Site[]) {
  const known = new Set(sites.map((s) => s.site_uuid));
  return {
    bySite: new Map(sites.map((s) => [s.site_uuid, cameras.filter((c) => c.site_uuid === s.site_uuid)])),
    unassigned: cameras.filter((c) => !c.site_uuid || !known.has(c.site_uuid)),
  };
}

/** docs/product.md §2 cameras list: grouped by property (and "No property"), with drag and drop between them. */
export default function CamerasPage() {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  // The keyboard steps only where a keyboard is likely: a phone (touch only) is shown the drag alone.
  const keyboard = useMediaQuery('(hover: hover) and (pointer: fine)');
  const cameras = useCameras();
  const sites = useSites();
  // A camera added elsewhere (the phone, the helper, a Nest sync), its first picture and its states arrive
  // here without a reload.
  useCamerasRealtime();
  const properties = useProperties();
  const cameraList = useMemo(() => cameras.data ?? [], [cameras.data]);
  const siteList = useMemo(() => sites.data ?? [], [sites.data]);
  const dnd = useCameraDnd(cameraList, siteList);
  const groups = useMemo(() => groupCameras(cameraList, siteList), [cameraList, siteList]);

  if (cameras.isPending || sites.isPending) return <CamerasListSkeleton />;

  const failure = cameras.error ?? sites.error;
  return (
    <div className="mx-auto w-full max-w-5xl p-4 md:p-6">
      <header className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="flex-1 text-2xl font-semibold tracking-tight text-white">{t('title')}</h1>
        <Link to="/settings/camera-setup" className={`${linkButton} text-slate-200 hover:bg-slate-800`}>
          <Settings2 className="size-4" aria-hidden="true" />
          {t('cameraSetup')}
        </Link>
        <Button variant="secondary" onClick={properties.startCreate}>
          <FolderPlus className="size-4" aria-hidden="true" />
          {t('newProperty')}
        </Button>
        <Link to="/cameras/add" className={`${linkButton} bg-brand-500 text-slate-950 hover:bg-brand-400`}>
          <Plus className="size-4" aria-hidden="true" />
          {t('addCamera')}
        </Link>
      </header>

      <NestOutcome />
      {failure ? (
        <div className="mb-6 flex flex-col items-start gap-3">
          <Alert>
            {errorText(tr, failure, cameras.error ? MESSAGES.loadCamerasFailed : MESSAGES.loadSitesFailed)}
          </Alert>
          <Button
            variant="secondary"
            onClick={() => {
              void cameras.refetch();
              void sites.refetch();
            }}
          >
            {t('retry')}
          </Button>
        </div>
      ) : null}

      {!failure && cameraList.length === 0 && siteList.length === 0 ? (
        <section className="rounded-2xl bg-slate-900 p-8 text-center ring-1 ring-slate-800">
          <CameraIcon className="mx-auto mb-3 size-10 text-brand-400" aria-hidden="true" />
          <h2 className="text-lg font-semibold text-white">{t('empty.title')}</h2>
          <p className="mx-auto mt-2 max-w-md text-sm text-slate-300">{t('empty.text')}</p>
        </section>
      ) : null}

      {!failure && (cameraList.length > 0 || siteList.length > 0) ? (
        <DndContext sensors={dnd.sensors} onDragEnd={dnd.onDragEnd} accessibility={dnd.accessibility}>
          <p className="mb-4 text-sm text-slate-400">
            {t('dragHint')}
            {keyboard ? ` ${t('dragHintKeyboard')}` : null}
          </p>
          <div className="flex flex-col gap-4">
            {siteList.map((site) => (
              <PropertyGroup
                key={site.site_uuid}
                site={site}
                cameras={groups.bySite.get(site.site_uuid) ?? []}
                onRename={properties.setRenaming}
                onDelete={properties.setDeleting}
              />
            ))}
            <PropertyGroup site={null} cameras={groups.unassigned} />
          </div>
        </DndContext>
      ) : null}

      {properties.creating ? (
        <PropertyNameDialog
          open
          onOpenChange={properties.setCreating}
          busy={properties.createBusy}
          onSubmit={properties.submitCreate}
        />
      ) : null}
      {properties.renaming ? (
        <PropertyNameDialog
          open
          site={properties.renaming}
          onOpenChange={(open) => !open && properties.setRenaming(null)}
          busy={properties.renameBusy}
          onSubmit={properties.submitRename}
        />
      ) : null}
      <ConfirmDialog
        open={properties.deleting !== null}
        onOpenChange={(open) => !open && properties.setDeleting(null)}
        title={t('property.deleteTitle', { name: properties.deleting?.name ?? '' })}
        description={t('property.deleteText')}
        confirmLabel={t('property.deleteConfirm')}
        tone="danger"
        onConfirm={properties.confirmDelete}
      />
      <AssociateMemoriesDialog
        site={properties.askAssociate}
        busy={properties.associateBusy}
        onNo={properties.associateNo}
        onYes={properties.associateYes}
      />
    </div>
  );
}
