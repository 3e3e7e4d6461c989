import * as Dialog from '@radix-ui/react-dialog';
import { CAMERA_NAME_MAX } from '@homesitter/contract/runtime';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { useCameras, useRenameCamera } from './api';
import { useCameraNameField } from './useCameraNameField';

/** Rename with the same inline name rules as adding (§5). */
export function RenameCameraDialog(props: {
  name: string;
  onClose: () => void;
  onRenamed: (name: string) => void;
}) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const cameras = useCameras();
  const rename = useRenameCamera();
  const field = useCameraNameField(
    (cameras.data ?? []).map((c) => c.name),
    props.name,
    props.name,
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!field.validate()) return;
    rename.mutate(
      { current_name: props.name, new_name: field.value.trim() },
      {
        onSuccess: (camera) => {
          notify.success(t('detail.renamed', { name: camera.name }));
          props.onRenamed(camera.name);
        },
        onError: (error) => {
          if (!field.fromServer(error)) notify.error(errorText(tr, error, t('detail.renameFailed')));
        },
      },
    );
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !rename.isPending && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-slate-900 p-6 shadow-2xl ring-1 ring-slate-700 focus:outline-none"
        >
          <Dialog.Title className="text-lg font-semibold text-white">{t('detail.renameTitle')}</Dialog.Title>
          <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-6">
            <TextField
              label={t('add.nameLabel')}
              value={field.value}
              maxLength={CAMERA_NAME_MAX + 1}
              autoFocus
              onChange={(e) => field.onChange(e.target.value)}
              error={field.error}
            />
            <div className="flex justify-end gap-3">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={rename.isPending}>
                  {t('dialog.cancel')}
                </Button>
              </Dialog.Close>
              <Button type="submit" busy={rename.isPending}>
                {t('detail.renameConfirm')}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
