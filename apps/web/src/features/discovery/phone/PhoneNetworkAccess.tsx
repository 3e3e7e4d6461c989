import { RefreshCw, Wifi, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { currentPlatform } from '../../../shared/lib/native';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import type { PhoneScanProblem } from './usePhoneScan';

/** iPhones ask for "Local Network" access; Android needs none beyond Wi-Fi, but the wording differs. */
const systemOf = () => (currentPlatform() === 'android' ? 'android' : 'ios');

/**
 * Before the first scan: why the app looks at the home network, and that the system may ask for it
 * (iOS shows its "find devices on your local network" prompt on the first probe).
 */
export function NetworkAccessExplainer({ onScan }: { onScan: () => void }) {
  const { t } = useTranslation('discovery');
  return (
    <Card className="flex flex-col gap-4" data-testid="phone-permission">
      <div className="flex gap-3">
        <Wifi className="mt-0.5 size-6 shrink-0 text-brand-400" aria-hidden="true" />
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold text-white">{t('phoneFlow.access.title')}</h2>
          <p className="text-sm text-slate-300">{t('phoneFlow.access.why')}</p>
          <p className="text-sm text-slate-300">{t(`phoneFlow.access.ask.${systemOf()}`)}</p>
        </div>
      </div>
      <div className="flex justify-end">
        <Button onClick={onScan}>{t('phoneFlow.access.scan')}</Button>
      </div>
    </Card>
  );
}

/** The scan could not run: how to join the Wi-Fi, or how to allow the local network in the settings. */
export function NetworkAccessProblem({
  problem,
  onRetry,
}: {
  problem: PhoneScanProblem;
  onRetry: () => void;
}) {
  const { t } = useTranslation('discovery');
  const system = systemOf();
  return (
    <Card className="flex flex-col gap-4" data-testid="phone-scan-problem" data-problem={problem}>
      <div className="flex gap-3">
        <WifiOff className="mt-0.5 size-6 shrink-0 text-amber-300" aria-hidden="true" />
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold text-white">{t(`phoneFlow.problem.${problem}.title`)}</h2>
          <p className="text-sm text-slate-300">{t(`phoneFlow.problem.${problem}.text`)}</p>
          <p className="text-sm text-slate-300">{t(`phoneFlow.problem.${problem}.${system}`)}</p>
        </div>
      </div>
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onRetry}>
          <RefreshCw className="size-4" aria-hidden="true" />
          {t('scan.rescan')}
        </Button>
      </div>
    </Card>
  );
}
