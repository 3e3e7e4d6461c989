import { MESSAGES, PASSWORD_MIN_LENGTH } from '@homesitter/contract/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, session } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { TextField } from '../../shared/ui/TextField';

/**
 * A new password, proven by the current one. The server ends every other session and answers a new one for
 * this tab, which replaces the old tokens here.
 */
export function ChangePasswordSection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tooShort = next.length > 0 && next.length < PASSWORD_MIN_LENGTH;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!current || next.length < PASSWORD_MIN_LENGTH) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.call('changePassword', {
        body: { current_password: current, new_password: next },
      });
      session.establish(answer);
      setCurrent('');
      setNext('');
      notify.success(t('settings.account.passwordChanged'));
    } catch (cause) {
      setError(errorText(t, cause, MESSAGES.changePasswordFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="password-heading">
      <h2 id="password-heading" className="mb-4 text-base font-semibold text-white">
        {t('settings.account.passwordTitle')}
      </h2>
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('settings.account.currentPassword')}
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <TextField
          label={t('settings.account.newPassword')}
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          hint={t('settings.account.newPasswordHint', { count: PASSWORD_MIN_LENGTH })}
          error={tooShort ? t('settings.account.newPasswordHint', { count: PASSWORD_MIN_LENGTH }) : null}
        />
        {error ? (
          <p role="alert" className="text-sm text-red-300">
            {error}
          </p>
        ) : null}
        <div>
          <Button type="submit" busy={busy} disabled={!current || next.length < PASSWORD_MIN_LENGTH}>
            {t('settings.account.changePassword')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
