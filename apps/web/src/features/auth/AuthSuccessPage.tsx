import { CheckCircle2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthShell } from './AuthShell';

/** Shown after the desktop helper received its token. */
export default function AuthSuccessPage() {
  const { t } = useTranslation();
  return (
    <AuthShell title={t('authSuccess.title')}>
      <div className="flex flex-col items-center gap-4 text-center">
        <CheckCircle2 className="size-12 text-emerald-400" aria-hidden="true" />
        <p className="text-slate-200">{t('authSuccess.text')}</p>
        <Link to="/highlights" className="text-sm text-brand-400 underline-offset-4 hover:underline">
          {t('authSuccess.openApp')}
        </Link>
      </div>
    </AuthShell>
  );
}
