import type { DiscoveredDevice, HelperCameraTestResult } from '@homesitter/contract';
import { ArrowLeft, FlaskConical } from 'lucide-react';
import { useReducer, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/lib/useSession';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { LegalLinks } from '../../../shared/ui/LegalLinks';
import { Logo } from '../../../shared/ui/Logo';
import { PageSpinner } from '../../../shared/ui/Skeletons';
import { StreamConnectionFields } from '../../cameras/add/StreamConnectionFields';
import { emptyStreamForm, type StreamFormValues } from '../../cameras/add/streamConnection';
import { useStreamForm } from '../../cameras/add/useStreamForm';
import { connectionValues, deviceTitle, flowReducer, initialFlow } from '../flow';
import { isHelperGone } from '../helperClient';
import { HelperProblemScreen } from '../screens/HelperProblemScreen';
import { HelperStatusLine } from '../screens/HelperSignIn';
import { TestResult } from '../screens/TestResult';
import { useDiscoveryScan, useHelperCheck, useTestCamera } from '../useHelper';
import { PickCamera } from './PickCamera';
import { WithoutHelper } from './WithoutHelper';

type Stage =
  | { step: 'pick' }
  | { step: 'login'; name: string; values: StreamFormValues }
  | { step: 'result'; name: string; values: StreamFormValues; result: HelperCameraTestResult };

/** The camera's address and login, then "Test the camera". */
function TestForm({
  name,
  values,
  onChange,
  onBack,
  onResult,
  onLost,
}: {
  name: string;
  values: StreamFormValues;
  onChange: (values: StreamFormValues) => void;
  onBack: () => void;
  onResult: (result: HelperCameraTestResult) => void;
  onLost: () => void;
}) {
  const { t } = useTranslation('discovery');
  const form = useStreamForm(values, onChange);
  const test = useTestCamera();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const connection = form.validate();
    if (!connection) return;
    test.mutate(connection, {
      onSuccess: onResult,
      onError: (error) => {
        if (isHelperGone(error)) onLost();
      },
    });
  };
  return (
    <Card>
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-5"
        aria-label={t('cameraTest.formLabel')}
      >
        <h2 className="text-lg font-semibold text-white">{name || t('cameraTest.loginTitle')}</h2>
        <p className="text-sm text-slate-300">{t('cameraTest.loginIntro')}</p>
        <StreamConnectionFields
          values={values}
          onChange={form.onChange}
          errors={form.errors}
          disabled={test.isPending}
        />
        {test.error && !isHelperGone(test.error) ? (
          <Alert>{t('login.testFailed', { message: test.error.message })}</Alert>
        ) : null}
        {test.isPending ? (
          <p role="status" className="text-sm text-slate-300">
            {t('cameraTest.running')}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-between gap-3">
          <Button variant="ghost" onClick={onBack}>
            {t('back')}
          </Button>
          <Button type="submit" busy={test.isPending}>
            <FlaskConical className="size-4" aria-hidden="true" />
            {t('cameraTest.run')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/**
 * docs/product.md §2 camera-test (public): does my camera work with Homesitter? The helper on this computer finds and
 * tries the camera; nothing about it is sent to the server (no sign-in, no server call but the page itself
 * and, when the helper is missing, the public list of helper downloads).
 */
export default function CameraTestPage() {
  const { t } = useTranslation('discovery');
  const { t: tr } = useTranslation();
  const { status: session } = useSession();
  const check = useHelperCheck({ withServer: false });
  const [flow, dispatch] = useReducer(flowReducer, initialFlow);
  const scan = useDiscoveryScan(dispatch);
  const [stage, setStage] = useState<Stage>({ step: 'pick' });

  const pick = (device: DiscoveredDevice) => {
    scan.stop();
    setStage({ step: 'login', name: deviceTitle(device), values: connectionValues(initialFlow, device) });
  };
  const retryHelper = () => {
    void check.refetch().then((result) => {
      if (result.data?.ready) dispatch({ type: 'helperBack' });
    });
  };

  let body;
  if (check.isPending) body = <PageSpinner />;
  else if (flow.helperLost) {
    body = (
      <HelperProblemScreen problem={{ kind: 'stopped' }} onRetry={retryHelper} retrying={check.isFetching} />
    );
  } else if (!check.data?.ready) {
    body = (
      <HelperProblemScreen
        problem={check.data?.problem ?? { kind: 'not_running' }}
        onRetry={retryHelper}
        retrying={check.isFetching}
      >
        <WithoutHelper />
      </HelperProblemScreen>
    );
  } else if (stage.step === 'pick') {
    body = (
      <PickCamera
        scan={flow.scan}
        onScan={scan.start}
        onStop={scan.stop}
        onPick={pick}
        onManual={() => {
          scan.stop();
          setStage({ step: 'login', name: '', values: emptyStreamForm });
        }}
      />
    );
  } else if (stage.step === 'login') {
    body = (
      <TestForm
        name={stage.name}
        values={stage.values}
        onChange={(values) => setStage({ ...stage, values })}
        onBack={() => setStage({ step: 'pick' })}
        onResult={(result) => setStage({ ...stage, step: 'result', result })}
        onLost={() => dispatch({ type: 'helperLost' })}
      />
    );
  } else {
    const name = stage.name || stage.values.host || stage.values.url;
    body = (
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold text-white">{t('cameraTest.resultTitle', { name })}</h2>
        <TestResult result={stage.result} name={name} />
        <div className="flex flex-wrap gap-3 border-t border-slate-800 pt-4">
          <Button
            variant="secondary"
            onClick={() => setStage({ step: 'login', name: stage.name, values: stage.values })}
          >
            {t('cameraTest.again')}
          </Button>
          <Button variant="ghost" onClick={() => setStage({ step: 'pick' })}>
            {t('cameraTest.another')}
          </Button>
          {stage.result.verdict === 'works' ? (
            <Link
              to={session === 'signedIn' ? '/cameras/add/network' : '/auth'}
              className="inline-flex h-11 items-center rounded-lg bg-brand-500 px-4 text-sm font-semibold text-slate-950 hover:bg-brand-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
            >
              {t(session === 'signedIn' ? 'cameraTest.addIt' : 'cameraTest.signUpToAdd')}
            </Link>
          ) : null}
        </div>
      </Card>
    );
  }

  return (
    <div className="min-h-dvh px-4 pt-[calc(var(--safe-top)+1.5rem)] pb-16">
      <header className="mx-auto flex max-w-3xl items-center justify-between">
        <Link
          to="/"
          aria-label={tr('nav.home')}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <Logo />
        </Link>
        <Link
          to={session === 'signedIn' ? '/' : '/auth'}
          className="inline-flex items-center gap-1 text-sm text-brand-400 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('cameraTest.toApp')}
        </Link>
      </header>
      <main className="mx-auto mt-10 flex max-w-3xl flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-semibold tracking-tight text-white">{t('cameraTest.title')}</h1>
          <p className="leading-relaxed text-slate-300">{t('cameraTest.intro')}</p>
          {check.data?.ready ? <HelperStatusLine status={check.data.status} /> : null}
        </div>
        {body}
        <LegalLinks className="mt-6 text-sm text-slate-400" />
      </main>
    </div>
  );
}
