import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { FromState } from '../../shared/lib/returnPath';
import { useSession } from '../../shared/lib/useSession';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { AuthForm } from './AuthForm';
import { AuthShell } from './AuthShell';
import { ProductPitch } from './ProductPitch';
import { isAllowedRedirect, isLoopbackRedirect } from './redirect';
import { useSignupEnabled } from './signup';
import { useAuthSubmit, type AuthMode } from './useAuthSubmit';
import { WaitlistView } from './WaitlistView';

interface AuthLocationState extends FromState {
  defaultToSignIn?: boolean;
}

/** Start in sign-in when `?defaultToSignIn=true` or the navigation state asks for it, else sign-up. */
export function initialAuthMode(search: URLSearchParams, state: unknown): AuthMode {
  const fromState = (state as AuthLocationState | null)?.defaultToSignIn === true;
  return search.get('defaultToSignIn') === 'true' || fromState ? 'signIn' : 'signUp';
}

export default function AuthPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { status, user } = useSession();
  const [initialState] = useState(() => location.state as AuthLocationState | null);
  const [mode, setMode] = useState<AuthMode>(() => initialAuthMode(search, initialState));
  const rawRedirect = search.get('redirect');
  const redirect = rawRedirect && isAllowedRedirect(rawRedirect) ? rawRedirect : null;
  const from = initialState?.from;
  const auth = useAuthSubmit({ mode, redirect, from });
  const signupEnabled = useSignupEnabled();
  // Signed in and sent here by a trusted target (the desktop helper): confirm instead of signing in again.
  const [otherAccount, setOtherAccount] = useState(false);

  // The defaultToSignIn flag is read once, then cleared from the history entry (the origin stays).
  useEffect(() => {
    if (initialState?.defaultToSignIn) {
      void navigate(
        { pathname: location.pathname, search: location.search },
        { replace: true, state: from ? { from } : null },
      );
    }
    if (rawRedirect && !redirect) console.warn('Ignoring an untrusted redirect target');
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (status === 'loading') return <PageSpinner fullScreen />;
  if (status === 'signedIn' && !redirect && !auth.processing && !auth.done) {
    return <Navigate to="/verify-email" replace state={{ from }} />;
  }

  if (status === 'signedIn' && redirect && user && !otherAccount) {
    return (
      <AuthShell
        title={t('auth.continueTitle')}
        subtitle={t(isLoopbackRedirect(redirect) ? 'auth.continueHelper' : 'auth.continueApp')}
      >
        <div className="flex flex-col gap-4">
          {auth.error ? <Alert>{auth.error}</Alert> : null}
          <Button onClick={() => void auth.continueAsSignedIn()} busy={auth.processing || auth.done}>
            {t('auth.continueAs', { email: user.email })}
          </Button>
          <Button
            variant="link"
            className="self-center"
            onClick={() => {
              auth.clearError();
              setMode('signIn');
              setOtherAccount(true);
            }}
          >
            {t('auth.useOtherAccount')}
          </Button>
        </div>
      </AuthShell>
    );
  }

  const isSignUp = mode === 'signUp';
  const showWaitlist = isSignUp && signupEnabled.data === false;
  const toggle = () => {
    auth.clearError();
    setMode(isSignUp ? 'signIn' : 'signUp');
  };

  return (
    <AuthShell
      title={t(showWaitlist ? 'waitlist.pageTitle' : isSignUp ? 'auth.signUpTitle' : 'auth.signInTitle')}
      subtitle={t(isSignUp ? 'auth.signUpSubtitle' : 'auth.signInSubtitle')}
      intro={isSignUp ? <ProductPitch /> : null}
    >
      {showWaitlist ? (
        <WaitlistView onBackToSignIn={() => setMode('signIn')} />
      ) : (
        <>
          <AuthForm
            key={mode}
            mode={mode}
            processing={auth.processing}
            error={auth.error}
            onSubmit={(v) => void auth.submit(v)}
          />
          <div className="mt-6 flex flex-col items-center gap-3 text-sm text-slate-300">
            <p>
              {t(isSignUp ? 'auth.haveAccount' : 'auth.noAccount')}{' '}
              <Button variant="link" onClick={toggle} data-testid="auth-toggle">
                {t(isSignUp ? 'auth.switchToSignIn' : 'auth.switchToSignUp')}
              </Button>
            </p>
            <Link to="/verify-email" className="text-brand-400 underline-offset-4 hover:underline">
              {t('auth.verifyEmailLink')}
            </Link>
          </div>
        </>
      )}
    </AuthShell>
  );
}
