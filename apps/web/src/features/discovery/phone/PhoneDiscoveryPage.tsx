import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { pageClass, SettingsHeader } from '../../settings/SettingsHeader';
import { flowReducer, initialFlow, reachableStep, STEPS, type Step } from '../flow';
import { StepIndicator } from '../screens/StepIndicator';
import { LoginStep } from '../steps/LoginStep';
import { ScanStep } from '../steps/ScanStep';
import { NetworkAccessExplainer, NetworkAccessProblem } from './PhoneNetworkAccess';
import { PhoneProgressStep } from './PhoneProgressStep';
import { PhoneSummaryStep } from './PhoneSummaryStep';
import { PhoneWelcomeStep } from './PhoneWelcomeStep';
import { usePhoneScan } from './usePhoneScan';

const parseStep = (value: string | null): Step =>
  STEPS.includes(value as Step) ? (value as Step) : 'welcome';

/**
 * docs/product.md §2 "Camera discovery flow" inside the iOS and Android apps (issue 33): the same five steps
 * as on a computer, but the phone scans its own Wi-Fi and tests the cameras itself, and the server then
 * pulls the cameras it can reach; no desktop helper is needed. The scan step first says why the app looks
 * at the local network, since the system may ask for it.
 */
export default function PhoneDiscoveryPage() {
  const { t } = useTranslation('discovery');
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const [state, dispatch] = useReducer(flowReducer, initialFlow);
  const scan = usePhoneScan(dispatch);

  const requested = parseStep(search.get('step'));
  const step = reachableStep(requested, state);
  const go = useCallback(
    (next: Step, replace = false) => setSearch(next === 'welcome' ? {} : { step: next }, { replace }),
    [setSearch],
  );
  useEffect(() => {
    if (step !== requested) go(step, true);
  }, [step, requested, go]);
  const { stop: stopScan } = scan;
  const previousStep = useRef(step);
  useEffect(() => {
    if (previousStep.current === 'scan' && step !== 'scan') stopScan();
    previousStep.current = step;
  }, [step, stopScan]);

  let body;
  switch (step) {
    case 'welcome':
      body = <PhoneWelcomeStep onStart={() => go('scan')} />;
      break;
    case 'scan':
      if (scan.problem) body = <NetworkAccessProblem problem={scan.problem} onRetry={scan.start} />;
      else if (state.scan.status === 'idle') body = <NetworkAccessExplainer onScan={scan.start} />;
      else
        body = (
          <ScanStep
            scan={state.scan}
            selected={state.selected}
            onToggle={(id) => dispatch({ type: 'toggle', id })}
            onStart={scan.start}
            onStop={scan.stop}
            onNext={() => go('login')}
            tips="phone"
          />
        );
      break;
    case 'login':
      body = (
        <LoginStep state={state} dispatch={dispatch} onBack={() => go('scan')} onNext={() => go('summary')} />
      );
      break;
    case 'summary':
      body = (
        <PhoneSummaryStep
          state={state}
          dispatch={dispatch}
          onBack={() => go('login')}
          onConfigured={() => go('progress')}
        />
      );
      break;
    case 'progress':
      body = (
        <PhoneProgressStep
          state={state}
          onAddMore={() => go('scan')}
          onDone={() => void navigate('/cameras')}
        />
      );
      break;
  }

  return (
    <div className={pageClass}>
      <SettingsHeader title={t('title')} back="/cameras/add" />
      <StepIndicator step={step} />
      {body}
    </div>
  );
}
