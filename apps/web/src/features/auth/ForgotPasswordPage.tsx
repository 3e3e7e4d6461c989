import { MESSAGES, PASSWORD_MIN_LENGTH } from '@homesitter/contract/runtime';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { AuthShell } from './AuthShell';

function RequestReset() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.call('forgotPassword', { body: { email: email.trim() } });
      setSent(true);
    } catch (cause) {
      setError(errorText(t, cause, MESSAGES.somethingWentWrong));
    } finally {
      setBusy(false);
    }
  }

  if (sent) return <Alert tone="success">{t('forgotPassword.sent', { email: email.trim() })}</Alert>;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
      />
      <Button type="submit" disabled={!email.trim()} busy={busy} className="w-full">
        {t('forgotPassword.send')}
      </Button>
    </form>
  );
}

function SetNewPassword({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN_LENGTH;
  const mismatch = confirm.length > 0 && confirm !== password;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (tooShort || mismatch || !password) return;
    setBusy(true);
    setError(null);
    try {
      await api.call('resetPassword', { body: { code, password } });
      notify.success(t('forgotPassword.done'));
      await navigate('/auth', { replace: true, state: { defaultToSignIn: true } });
    } catch (cause) {
      setError(errorText(t, cause, MESSAGES.resetPasswordFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label={t('forgotPassword.newPassword')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={tooShort ? t('forgotPassword.tooShort', { count: PASSWORD_MIN_LENGTH }) : null}
      />
      <TextField
        label={t('forgotPassword.confirmPassword')}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={mismatch ? t('forgotPassword.mismatch') : null}
      />
      <Button
        type="submit"
        disabled={!password || tooShort || confirm !== password}
        busy={busy}
        className="w-full"
      >
        {t('forgotPassword.save')}
      </Button>
    </form>
  );
}

/** Request a reset link, or with `?code=` from that link set a new password. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const code = search.get('code');
  return (
    <AuthShell
      title={t(code ? 'forgotPassword.resetTitle' : 'forgotPassword.title')}
      subtitle={t(code ? 'forgotPassword.resetSubtitle' : 'forgotPassword.subtitle')}
    >
      {code ? <SetNewPassword code={code} /> : <RequestReset />}
      <div className="mt-6 text-center text-sm">
        <Link
          to="/auth"
          state={{ defaultToSignIn: true }}
          className="text-brand-400 underline-offset-4 hover:underline"
        >
          {t('forgotPassword.backToSignIn')}
        </Link>
      </div>
    </AuthShell>
  );
}
