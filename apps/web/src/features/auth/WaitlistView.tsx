import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { joinWaitlist } from './signup';

/** Replaces the sign-up form while sign-up is disabled (docs/product.md §2): an email field and a submit. */
export function WaitlistView({ onBackToSignIn }: { onBackToSignIn: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [processing, setProcessing] = useState(false);
  const [joined, setJoined] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || processing) return;
    setProcessing(true);
    setError(null);
    try {
      await joinWaitlist(email.trim());
      setJoined(true);
      notify.success(t('auth.waitlistJoined'));
    } catch (cause) {
      setError(errorText(t, cause, t('auth.waitlistError')));
    } finally {
      setProcessing(false);
    }
  }

  return (
    <div className="flex flex-col gap-4" data-testid="waitlist">
      <div>
        <h2 className="text-lg font-semibold text-white">{t('waitlist.title')}</h2>
        <p className="mt-1 text-sm text-slate-300">{t('waitlist.description')}</p>
      </div>
      {joined ? (
        <Alert tone="success">{t('waitlist.joinedText')}</Alert>
      ) : (
        <form onSubmit={(e) => void handleSubmit(e)} noValidate className="flex flex-col gap-4">
          {error ? <Alert>{error}</Alert> : null}
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
          <Button type="submit" disabled={!email.trim() || processing} busy={processing} className="w-full">
            {t('waitlist.join')}
          </Button>
        </form>
      )}
      <Button variant="link" onClick={onBackToSignIn} className="self-center">
        {t('waitlist.backToSignIn')}
      </Button>
    </div>
  );
}
