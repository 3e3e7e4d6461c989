import type { Site } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { countMemories, useAssociateAllMemories, useCreateSite, useDeleteSite, useRenameSite } from './api';

/**
 * State of the properties dialogs: create → associate-all prompt (only when there are memories to
 * associate), rename, delete confirmation.
 */
export function useProperties() {
  const create = useCreateSite();
  const rename = useRenameSite();
  const remove = useDeleteSite();
  const associate = useAssociateAllMemories();
  const queryClient = useQueryClient();
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
          // Without memories there is nothing to ask about; if they cannot be counted, ask as before.
          countMemories(queryClient).then(
            (count) => count > 0 && setAskAssociate(site),
            () => setAskAssociate(site),
          );
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
