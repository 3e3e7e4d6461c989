import type { Site } from '@homesitter/contract';
import { useState } from 'react';
import { useAssociateAllMemories, useCreateSite, useDeleteSite, useRenameSite } from './api';

/** State of the properties dialogs: create → associate-all prompt, rename, delete confirmation. */
export function useProperties() {
  const create = useCreateSite();
  const rename = useRenameSite();
  const remove = useDeleteSite();
  const associate = useAssociateAllMemories();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Site | null>(null);
  const [deleting, setDeleting] = useState<Site | null>(null);
  const [askAssociate, setAskAssociate] = useState<Site | null>(null);

  return {
    creating,
    renaming,
    deleting,
    askAssociate,
    createBusy: create.isPending,
    renameBusy: rename.isPending,
    associateBusy: associate.isPending,
    startCreate: () => setCreating(true),
    setCreating,
    setRenaming,
    setDeleting,
    submitCreate: (name: string) =>
      create.mutate(name, {
        onSuccess: (site) => {
          setCreating(false);
          setAskAssociate(site);
        },
      }),
    submitRename: (name: string) => {
      if (!renaming) return;
      rename.mutate({ siteUuid: renaming.site_uuid, name }, { onSuccess: () => setRenaming(null) });
    },
    /** Optimistic: the dialog closes and the property disappears at once. */
    confirmDelete: () => {
      if (!deleting) return;
      remove.mutate(deleting.site_uuid);
      setDeleting(null);
    },
    associateNo: () => setAskAssociate(null),
    associateYes: (site: Site) =>
      associate.mutate(site.site_uuid, { onSettled: () => setAskAssociate(null) }),
  };
}
