import { MESSAGES } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, session } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { TextField } from '../../shared/ui/TextField';

/** Deleting the account needs the confirmation word typed out. */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const word = t('settings.account.deleteWord');

  async function remove() {
    setBusy(true);
    try {
      await api.call('deleteUser');
      session.endLocally();
      queryClient.clear();
      notify.success(t('settings.account.deleted'));
      await navigate('/auth', { replace: true });
    } catch (cause) {
      notify.error(errorText(t, cause, MESSAGES.deleteUserFailed));
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="delete-heading" className="ring-red-900/60">
      <h2 id="delete-heading" className="text-base font-semibold text-white">
        {t('settings.account.deleteTitle')}
      </h2>
      <p className="mt-1 mb-4 text-sm text-slate-300">{t('settings.account.deleteDescription')}</p>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('settings.account.deleteButton')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setTyped('');
        }}
        tone="danger"
        title={t('settings.account.deleteConfirmTitle')}
        description={t('settings.account.deleteConfirmText', { word })}
        confirmLabel={t('settings.account.deleteButton')}
        confirmDisabled={typed.trim() !== word}
        busy={busy}
        onConfirm={() => void remove()}
      >
        <TextField
          label={t('settings.account.deleteTypeLabel', { word })}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
        />
      </ConfirmDialog>
    </Card>
  );
}
