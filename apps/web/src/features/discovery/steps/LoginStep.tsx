import type { DiscoveredDevice } from '@homesitter/contract';
import { FlaskConical, Lock } from 'lucide-react';
import { useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { TextField } from '../../../shared/ui/TextField';
import type { StreamField } from '../../cameras/add/streamConnection';
import {
  connectionFor,
  connectionValues,
  deviceTitle,
  hasOwnLogin,
  loginFor,
  selectedDevices,
  type FlowAction,
  type FlowState,
  type Login,
} from '../flow';
import { isHelperGone } from '../helperClient';
import { needsOtherLogin } from '../helperProblems';
import { TestResult } from '../screens/TestResult';
import { useTestCamera } from '../useHelper';

type FieldErrors = Partial<Record<StreamField, string | null>>;

function LoginFields({
  login,
  onChange,
  errors,
}: {
  login: Login;
  onChange: (login: Login) => void;
  errors: FieldErrors;
}) {
  const { t } = useTranslation('discovery');
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label={t('login.username')}
        value={login.username}
        onChange={(e) => onChange({ ...login, username: e.target.value })}
        error={errors.username}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
      />
      <TextField
        label={t('login.password')}
        type="password"
        value={login.password}
        onChange={(e) => onChange({ ...login, password: e.target.value })}
        error={errors.password}
        autoComplete="new-password"
      />
    </div>
  );
}

/** One chosen camera: its address, its own login when it has one, and "Test". */
function CameraLogin({
  state,
  dispatch,
  device,
  errors,
  many,
}: {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
  device: DiscoveredDevice;
  errors: FieldErrors;
  many: boolean;
}) {
  const { t } = useTranslation('discovery');
  const testCamera = useTestCamera();
  const own = hasOwnLogin(state, device.id);
  const test = state.tests[device.id];
  const check = connectionFor(state, device);
  const title = deviceTitle(device);

  const runTest = () => {
    if (!check.connection) return;
    dispatch({ type: 'testStarted', id: device.id });
    testCamera.mutate(check.connection, {
      onSuccess: (result) => dispatch({ type: 'testFinished', id: device.id, result }),
      onError: (error) => {
        dispatch({ type: 'testFailed', id: device.id, message: error.message });
        if (isHelperGone(error)) dispatch({ type: 'helperLost' });
      },
    });
  };
  const wrongLogin = test?.status === 'done' && needsOtherLogin(test.result);

  return (
    <li data-testid="camera-login" data-address={device.address}>
      <fieldset className="flex flex-col gap-4 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800">
        <legend className="sr-only">
          {t('login.cameraLegend', { name: title, address: device.address })}
        </legend>
        <div aria-hidden="true" className="flex items-center gap-2">
          <span className="font-medium text-white">{title}</span>
          <span className="text-xs text-slate-400">{device.address}</span>
          {device.needs_credentials ? <Lock className="size-4 text-slate-300" /> : null}
        </div>
        {device.onvif ? null : (
          <TextField
            label={t('login.url')}
            hint={t('login.urlHint')}
            value={connectionValues(state, device).url}
            onChange={(e) => dispatch({ type: 'setUrl', id: device.id, url: e.target.value })}
            error={errors.url}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            inputMode="url"
          />
        )}
        {own ? (
          <LoginFields
            login={loginFor(state, device.id)}
            onChange={(login) => dispatch({ type: 'setLogin', id: device.id, login })}
            errors={errors}
          />
        ) : (
          <p className="text-sm text-slate-400">{t('login.usesShared')}</p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={runTest}
            busy={test?.status === 'testing'}
            disabled={!check.connection}
          >
            <FlaskConical className="size-4" aria-hidden="true" />
            {test?.status === 'testing' ? t('login.testing') : t('login.test', { name: title })}
          </Button>
          {many && !own ? (
            <Button
              variant={wrongLogin ? 'secondary' : 'ghost'}
              onClick={() => dispatch({ type: 'useOwnLogin', id: device.id })}
            >
              {t('login.ownLogin')}
            </Button>
          ) : null}
        </div>
        {test?.status === 'done' ? <TestResult result={test.result} name={title} compact /> : null}
        {test?.status === 'error' ? <Alert>{t('login.testFailed', { message: test.message })}</Alert> : null}
      </fieldset>
    </li>
  );
}

/**
 * Step 3: each chosen camera's login, one for all (the default) or one each; ONVIF cameras are reached by
 * host and port, RTSP-only ones by their stream address. "Test" tries a camera before anything is set up.
 */
export function LoginStep({
  state,
  dispatch,
  onBack,
  onNext,
}: {
  state: FlowState;
  dispatch: Dispatch<FlowAction>;
  onBack: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation('discovery');
  const { t: tc } = useTranslation('cameras');
  const [tried, setTried] = useState(false);
  const devices = selectedDevices(state);
  const many = devices.length > 1;

  const errorsOf = (device: DiscoveredDevice): FieldErrors => {
    if (!tried) return {};
    const { problems } = connectionFor(state, device);
    const errors: FieldErrors = {};
    for (const [field, problem] of Object.entries(problems) as [StreamField, string][]) {
      errors[field] = tc(`add.stream.problems.${problem}`);
    }
    return errors;
  };
  const sharedErrors = devices
    .filter((d) => !hasOwnLogin(state, d.id))
    .map(errorsOf)
    .reduce<FieldErrors>(
      (all, e) => ({ ...all, username: all.username ?? e.username, password: all.password ?? e.password }),
      {},
    );
  const complete = devices.every((d) => connectionFor(state, d).connection);

  const next = () => {
    setTried(true);
    if (complete) onNext();
  };

  return (
    <Card className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-white">{t('login.title')}</h2>
        <p className="text-sm text-slate-300">{t('login.intro')}</p>
      </div>
      {many ? (
        <label className="flex items-center gap-3 text-sm text-slate-200">
          <input
            type="checkbox"
            checked={state.sameLogin}
            onChange={(e) => dispatch({ type: 'setSameLogin', value: e.target.checked })}
            className="size-4 accent-brand-500"
          />
          {t('login.sameForAll')}
        </label>
      ) : null}
      {state.sameLogin ? (
        <fieldset className="flex flex-col gap-3" data-testid="shared-login">
          <legend className="mb-2 text-sm font-medium text-slate-200">
            {t(many ? 'login.sharedTitle' : 'login.oneTitle')}
          </legend>
          <LoginFields
            login={state.shared}
            onChange={(login) => dispatch({ type: 'setSharedLogin', login })}
            errors={sharedErrors}
          />
        </fieldset>
      ) : null}
      <ul className="flex flex-col gap-3" aria-label={t('login.camerasLabel')}>
        {devices.map((device) => (
          <CameraLogin
            key={device.id}
            state={state}
            dispatch={dispatch}
            device={device}
            errors={errorsOf(device)}
            many={many}
          />
        ))}
      </ul>
      {tried && !complete ? <Alert>{t('login.fixFields')}</Alert> : null}
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="ghost" onClick={onBack}>
          {t('back')}
        </Button>
        <Button onClick={next}>{t('login.next')}</Button>
      </div>
    </Card>
  );
}
