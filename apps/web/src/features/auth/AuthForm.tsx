import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { TextField } from '../../shared/ui/TextField';
import { composePhone, DEFAULT_PHONE, phoneError } from './phone';
import { PhoneInput } from './PhoneInput';
import { TermsCheckbox } from './TermsCheckbox';
import type { AuthMode, AuthValues } from './useAuthSubmit';

export interface AuthFormProps {
  mode: AuthMode;
  processing: boolean;
  error: string | null;
  onSubmit: (values: AuthValues) => void;
}

/** Email, password and, for a new account, an optional phone and the terms (docs/product.md §2 "Auth page", §5). */
export function AuthForm({ mode, processing, error, onSubmit }: AuthFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [phone, setPhone] = useState(DEFAULT_PHONE);
  const [phoneTouched, setPhoneTouched] = useState(false);
  const [terms, setTerms] = useState(false);
  const [termsError, setTermsError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const isSignUp = mode === 'signUp';
  const fullPhone = composePhone(phone);
  const phoneErrorKey = isSignUp ? phoneError(fullPhone) : null;
  const filled = email.trim() !== '' && password !== '';
  const submitDisabled = processing || (isSignUp ? !terms : !filled);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (isSignUp && !terms) {
      setTermsError(t('auth.agreeToTerms'));
      return;
    }
    if (phoneErrorKey || processing) return;
    onSubmit({ email: email.trim(), password, phone: isSignUp ? fullPhone : '' });
  }

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      className="flex flex-col gap-4"
      aria-label={t(isSignUp ? 'auth.signUpTitle' : 'auth.signInTitle')}
    >
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
      />
      <TextField
        label={t('auth.password')}
        type="password"
        name="password"
        autoComplete={isSignUp ? 'new-password' : 'current-password'}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint={isSignUp ? t('auth.passwordHint') : undefined}
        required
      />
      {isSignUp ? (
        <>
          <PhoneInput
            label={t('auth.phoneOptional')}
            hint={t('auth.phoneHint')}
            value={phone}
            onChange={setPhone}
            onBlur={() => setPhoneTouched(true)}
            error={(phoneTouched || submitted) && phoneErrorKey ? t(phoneErrorKey) : null}
          />
          <TermsCheckbox
            checked={terms}
            onChange={(v) => {
              setTerms(v);
              if (v) setTermsError(null);
            }}
            error={termsError}
          />
          {filled && !terms && !termsError ? (
            <p role="status" className="text-sm text-amber-200">
              {t('auth.acceptTermsError')}
            </p>
          ) : null}
        </>
      ) : (
        <div className="-mt-1 flex justify-end">
          <Link to="/forgot-password" className="text-sm text-brand-400 underline-offset-4 hover:underline">
            {t('auth.forgotPassword')}
          </Link>
        </div>
      )}
      <Button type="submit" disabled={submitDisabled} busy={processing} className="mt-1 w-full">
        {t(isSignUp ? 'auth.createAccount' : 'auth.signIn')}
      </Button>
    </form>
  );
}
