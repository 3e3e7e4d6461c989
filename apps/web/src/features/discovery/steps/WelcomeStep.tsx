import type { HelperStatus } from '@homesitter/contract';
import { Radar } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { HelperSignIn, helperSignedInAs, HelperStatusLine } from '../screens/HelperSignIn';

const WHAT_HAPPENS = ['scan', 'login', 'summary', 'progress'] as const;

/** What the flow does, the helper's state, and Start scan once the helper is signed in as this user. */
export function WelcomeStep({
  status,
  email,
  onStart,
}: {
  status: HelperStatus;
  email: string | null | undefined;
  onStart: () => void;
}) {
  const { t } = useTranslation('discovery');
  const ready = helperSignedInAs(status, email);
  return (
    <Card className="flex flex-col gap-5">
      <div className="flex gap-3">
        <Radar className="mt-0.5 size-6 shrink-0 text-brand-400" aria-hidden="true" />
        <div className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold text-white">{t('welcome.title')}</h2>
          <p className="text-sm text-slate-300">{t('welcome.intro')}</p>
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-300">
            {WHAT_HAPPENS.map((step) => (
              <li key={step}>{t(`welcome.what.${step}`)}</li>
            ))}
          </ol>
          <p className="text-xs text-slate-400">{t('welcome.privacy')}</p>
        </div>
      </div>
      <HelperStatusLine status={status} />
      <HelperSignIn status={status} email={email} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link
          to="/cameras/add?type=stream"
          className="text-sm text-brand-400 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          {t('welcome.manual')}
        </Link>
        <Button onClick={onStart} disabled={!ready}>
          <Radar className="size-4" aria-hidden="true" />
          {t('welcome.start')}
        </Button>
      </div>
    </Card>
  );
}
