import { Radar } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';

const WHAT_HAPPENS = ['scan', 'login', 'summary', 'progress'] as const;

/** What the flow does on the phone itself: no helper to start or sign in. */
export function PhoneWelcomeStep({ onStart }: { onStart: () => void }) {
  const { t } = useTranslation('discovery');
  return (
    <Card className="flex flex-col gap-5">
      <div className="flex gap-3">
        <Radar className="mt-0.5 size-6 shrink-0 text-brand-400" aria-hidden="true" />
        <div className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold text-white">{t('phoneFlow.welcome.title')}</h2>
          <p className="text-sm text-slate-300">{t('phoneFlow.welcome.intro')}</p>
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-300">
            {WHAT_HAPPENS.map((step) => (
              <li key={step}>{t(`phoneFlow.welcome.what.${step}`)}</li>
            ))}
          </ol>
          <p className="text-xs text-slate-400">{t('phoneFlow.welcome.privacy')}</p>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link
          to="/cameras/add?type=stream"
          className="text-sm text-brand-400 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          {t('welcome.manual')}
        </Link>
        <Button onClick={onStart}>
          <Radar className="size-4" aria-hidden="true" />
          {t('welcome.start')}
        </Button>
      </div>
    </Card>
  );
}
