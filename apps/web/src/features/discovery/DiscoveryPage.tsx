import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../shared/lib/useSession';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { flowReducer, initialFlow, reachableStep, STEPS, type Step } from './flow';
import { findsCamerasItself } from './phoneDiscovery';
import PhoneDiscoveryPage from './phone/PhoneDiscoveryPage';
import { HelperProblemScreen } from './screens/HelperProblemScreen';
import { StepIndicator } from './screens/StepIndicator';
import { LoginStep } from './steps/LoginStep';
import { ProgressStep } from './steps/ProgressStep';
import { ScanStep } from './steps/ScanStep';
import { SummaryStep } from './steps/SummaryStep';
import { WelcomeStep } from './steps/WelcomeStep';
import { helperJobsKey, useDiscoveryScan, useHelperCheck } from './useHelper';

const parseStep = (value: string | null): Step =>
  STEPS.includes(value as Step) ? (value as Step) : 'welcome';

/**
 * docs/product.md §2 "Camera discovery flow" (`/cameras/add/network`): welcome, scanning, credentials, selection
 * summary, configuration progress, through the desktop helper on this computer. The step is in the URL
 * (`?step=`), so the browser's back and forward buttons move between steps; what was found and entered
 * stays in one reducer while the page is open. Without a usable helper, the screen for its problem shows.
 * Inside the iOS and Android apps the phone does it itself (`phone/PhoneDiscoveryPage`).
 */
export default function DiscoveryPage() {
  // The apps find the cameras themselves; the browser keeps the helper's flow.
  return findsCamerasItself() ? <PhoneDiscoveryPage /> : <HelperDiscoveryPage />;
}

function HelperDiscoveryPage() {
  const { t } = useTranslation('discovery');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [search, setSearch] = useSearchParams();
  const [state, dispatch] = useReducer(flowReducer, initialFlow);
  const scan = useDiscoveryScan(dispatch);
  const check = useHelperCheck({ withServer: true, waitForSignIn: true });
  // The flow got past the welcome, so the helper worked: it stopped rather than never ran.
  const started = state.scan.status !== 'idle' || state.submitted.length > 0;

  const requested = parseStep(search.get('step'));
  const step = reachableStep(requested, state);
  const go = useCallback(
    (next: Step, replace = false) => setSearch(next === 'welcome' ? {} : { step: next }, { replace }),
    [setSearch],
  );

  useEffect(() => {
    if (step !== requested) go(step, true);
  }, [step, requested, go]);
  // Leaving the scan (Continue, or the back button) stops it; what it found stays.
  const { stop: stopScan } = scan;
  const previousStep = useRef(step);
  useEffect(() => {
    if (previousStep.current === 'scan' && step !== 'scan') stopScan();
    previousStep.current = step;
  }, [step, stopScan]);

  const retryHelper = () => {
    void check.refetch().then((result) => {
      if (result.data?.ready) {
        dispatch({ type: 'helperBack' });
        void queryClient.invalidateQueries({ queryKey: helperJobsKey });
      }
    });
  };

  let body;
  if (check.isPending) body = <PageSpinner />;
  else if (
    state.helperLost ||
    (started && check.data && !check.data.ready && check.data.problem.kind === 'not_running')
  ) {
    body = (
      <HelperProblemScreen problem={{ kind: 'stopped' }} onRetry={retryHelper} retrying={check.isFetching} />
    );
  } else if (!check.data?.ready) {
    body = (
      <HelperProblemScreen
        problem={check.data?.problem ?? { kind: 'not_running' }}
        onRetry={retryHelper}
        retrying={check.isFetching}
      />
    );
  } else {
    const status = check.data.status;
    switch (step) {
      case 'welcome':
        body = (
          <WelcomeStep
            status={status}
            email={user?.email}
            onStart={() => {
              scan.start();
              go('scan');
            }}
          />
        );
        break;
      case 'scan':
        body = (
          <ScanStep
            scan={state.scan}
            selected={state.selected}
            onToggle={(id) => dispatch({ type: 'toggle', id })}
            onStart={scan.start}
            onStop={scan.stop}
            onNext={() => go('login')}
          />
        );
        break;
      case 'login':
        body = (
          <LoginStep
            state={state}
            dispatch={dispatch}
            onBack={() => go('scan')}
            onNext={() => go('summary')}
          />
        );
        break;
      case 'summary':
        body = (
          <SummaryStep
            state={state}
            dispatch={dispatch}
            status={status}
            email={user?.email}
            onBack={() => go('login')}
            onConfigured={() => go('progress')}
          />
        );
        break;
      case 'progress':
        body = (
          <ProgressStep
            state={state}
            dispatch={dispatch}
            onAddMore={() => go('scan')}
            onDone={() => void navigate('/cameras')}
          />
        );
        break;
    }
  }

  return (
    <div className={pageClass}>
      <SettingsHeader title={t('title')} back="/cameras/add" />
      <StepIndicator step={step} />
      {body}
    </div>
  );
}
