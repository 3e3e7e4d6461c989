import { MailCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { session } from '../../shared/lib/api';
import { originPath } from '../../shared/lib/returnPath';
import { useSession } from '../../shared/lib/useSession';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { AuthShell } from './AuthShell';
import { useEmailVerification } from './useEmailVerification';

export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { user, isVerified } = useSession();
  const justSent = (location.state as { sent?: boolean } | null)?.sent === true;
  const v = useEmailVerification(search.get('code'), justSent);

  if (isVerified) return <Navigate to={originPath(location.state)} replace />;
  if (v.verifying) return <PageSpinner fullScreen />;

  return (
    <AuthShell
      title={t('verifyEmail.title')}
      subtitle={t('verifyEmail.subtitle', { email: user?.email ?? '' })}
    >
      <div className="flex flex-col gap-4">
        <MailCheck className="size-10 text-brand-400" aria-hidden="true" />
        <p className="text-sm text-slate-300">{t('verifyEmail.instructions')}</p>
        {v.error ? <Alert>{v.error}</Alert> : null}
        <Button onClick={() => void v.check()} busy={v.checking} className="w-full">
          {t('verifyEmail.continue')}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void v.resend()}
          disabled={v.seconds > 0}
          busy={v.sending}
          className="w-full"
          data-testid="resend-verification"
        >
          {v.seconds > 0 ? t('verifyEmail.resendIn', { seconds: v.seconds }) : t('verifyEmail.resend')}
        </Button>
        <p aria-live="polite" className="sr-only">
          {v.seconds > 0 && v.seconds % 15 === 0 ? t('verifyEmail.resendIn', { seconds: v.seconds }) : ''}
        </p>
        <Button
          variant="link"
          className="self-center"
          onClick={() =>
            void session
              .signOut()
              .then(() => navigate('/auth', { replace: true, state: { defaultToSignIn: true } }))
          }
        >
          {t('verifyEmail.useAnotherAccount')}
        </Button>
      </div>
    </AuthShell>
  );
}
