import * as Dialog from '@radix-ui/react-dialog';
import type { Site } from '@homesitter/contract';
import { SITE_NAME_MAX } from '@homesitter/contract/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';

const contentClass =
  'fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-slate-900 p-6 shadow-2xl ring-1 ring-slate-700 focus:outline-none';
const overlayClass = 'fixed inset-0 z-50 bg-black/60 backdrop-blur-sm';

/** Create or rename a property: one name field. */
export function PropertyNameDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  site?: Site | null;
  busy: boolean;
  onSubmit: (name: string) => void;
}) {
  const { t } = useTranslation('cameras');
  const [name, setName] = useState(props.site?.name ?? '');
  const [touched, setTouched] = useState(false);
  const problem = !name.trim() ? t('property.nameRequired') : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!problem) props.onSubmit(name.trim());
  };
  return (
    <Dialog.Root open={props.open} onOpenChange={(next) => !props.busy && props.onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClass} />
        <Dialog.Content className={contentClass} aria-describedby={undefined}>
          <Dialog.Title className="text-lg font-semibold text-white">
            {props.site ? t('property.renameTitle') : t('property.createTitle')}
          </Dialog.Title>
          <form onSubmit={submit} className="mt-4 flex flex-col gap-6" noValidate>
            <TextField
              label={t('property.nameLabel')}
              value={name}
              maxLength={SITE_NAME_MAX}
              autoFocus
              onChange={(e) => setName(e.target.value)}
              error={touched ? problem : null}
            />
            <div className="flex justify-end gap-3">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={props.busy}>
                  {t('dialog.cancel')}
                </Button>
              </Dialog.Close>
              <Button type="submit" busy={props.busy}>
                {props.site ? t('property.renameConfirm') : t('property.createConfirm')}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** docs/product.md §2: after creating a property, ask whether every existing memory belongs to it too (No / Yes). */
export function AssociateMemoriesDialog(props: {
  site: Site | null;
  busy: boolean;
  onNo: () => void;
  onYes: (site: Site) => void;
}) {
  const { t } = useTranslation('cameras');
  const { site } = props;
  return (
    <Dialog.Root open={site !== null} onOpenChange={(open) => !open && !props.busy && props.onNo()}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClass} />
        <Dialog.Content className={contentClass} role="alertdialog">
          <Dialog.Title className="text-lg font-semibold text-white">{t('associate.title')}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm leading-relaxed text-slate-300">
            {t('associate.text', { name: site?.name ?? '' })}
          </Dialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" disabled={props.busy} onClick={props.onNo}>
              {t('associate.no')}
            </Button>
            <Button busy={props.busy} onClick={() => site && props.onYes(site)}>
              {t('associate.yes')}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
