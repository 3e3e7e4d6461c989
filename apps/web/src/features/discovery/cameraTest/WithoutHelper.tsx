import { Mail } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/lib/useSession';
import { Card } from '../../../shared/ui/Card';

/**
 * Cameras that upload (FTP, email) need no helper: how they connect instead, and where to start (an account
 * first, unless the visitor is signed in already).
 */
export function WithoutHelper() {
  const { t } = useTranslation('discovery');
  const signedIn = useSession().status === 'signedIn';
  return (
    <Card className="flex gap-3" data-testid="without-helper">
      <Mail className="mt-0.5 size-6 shrink-0 text-brand-400" aria-hidden="true" />
      <div className="flex flex-col gap-3 text-sm leading-relaxed text-slate-300">
        <h2 className="text-lg font-semibold text-white">{t('cameraTest.withoutHelper.title')}</h2>
        <p>{t('cameraTest.withoutHelper.text')}</p>
        <ol className="list-decimal space-y-1 pl-5">
          {signedIn ? null : <li>{t('cameraTest.withoutHelper.step1')}</li>}
          <li>{t('cameraTest.withoutHelper.step2')}</li>
          <li>{t('cameraTest.withoutHelper.step3')}</li>
        </ol>
        <div className="flex flex-wrap gap-4">
          {signedIn ? null : (
            <Link to="/auth" className="font-semibold text-brand-400 underline-offset-4 hover:underline">
              {t('cameraTest.withoutHelper.signUp')}
            </Link>
          )}
          <Link to="/settings/camera-setup" className="text-brand-400 underline-offset-4 hover:underline">
            {t('cameraTest.withoutHelper.setup')}
          </Link>
        </div>
      </div>
    </Card>
  );
}
