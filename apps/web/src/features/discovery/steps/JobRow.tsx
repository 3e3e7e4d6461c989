import type { HelperJob, StreamConnectionInput } from '@homesitter/contract';
import { CheckCircle2, RefreshCw, XCircle } from 'lucide-react';
import { useState, type Dispatch, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Spinner } from '../../../shared/ui/Spinner';
import { TextField } from '../../../shared/ui/TextField';
import type { FlowAction, Submitted } from '../flow';
import { HELPER_ERROR_CODES } from '@homesitter/contract/runtime';
import { isHelperError, isHelperGone } from '../helperClient';
import { jobErrorKey, needsOtherLogin, needsOtherName } from '../helperProblems';
import { useConfigureCameras, useRetryJob } from '../useHelper';

/** `lost`: the helper no longer lists the job (it restarted): set the camera up again. */
export type JobView = HelperJob['status'] | 'lost';

function withLogin(
  connection: StreamConnectionInput,
  username: string,
  password: string,
): StreamConnectionInput {
  if (connection.type === 'onvif') return { ...connection, username, password };
  const { username: _u, password: _p, ...rest } = connection;
  return { ...rest, ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

function StatusChip({ status }: { status: JobView }) {
  const { t } = useTranslation('discovery');
  const Icon =
    status === 'configured' ? CheckCircle2 : status === 'failed' || status === 'lost' ? XCircle : null;
  return (
    <span
      className="flex items-center gap-1.5 text-sm text-slate-200"
      data-testid="job-status"
      data-status={status}
    >
      {Icon ? (
        <Icon
          className={status === 'configured' ? 'size-4 text-emerald-400' : 'size-4 text-red-400'}
          aria-hidden="true"
        />
      ) : (
        <Spinner size="sm" className="text-brand-400" />
      )}
      {t(`progress.status.${status}`)}
    </span>
  );
}

/**
 * One camera being set up by the helper (docs/product.md §4: pending → configuring → configured | failed, with retry).
 * A refused login is fixed right here; a name the server refused gets a new one; anything else: Try again.
 */
export function JobRow({
  submitted,
  job,
  status,
  siteUuid,
  dispatch,
}: {
  submitted: Submitted;
  job: HelperJob | undefined;
  status: JobView;
  siteUuid: string | null;
  dispatch: Dispatch<FlowAction>;
}) {
  const { t } = useTranslation('discovery');
  const retry = useRetryJob();
  const configure = useConfigureCameras();
  const login = submitted.connection;
  const [username, setUsername] = useState(login.username ?? '');
  const [password, setPassword] = useState('');
  const [name, setName] = useState(submitted.name);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = retry.isPending || configure.isPending;

  const onError = (error: Error) => {
    if (isHelperGone(error)) dispatch({ type: 'helperLost' });
    else setFailure(error.message);
  };
  /** A fresh job for this camera (after a restart of the helper, or with another name). */
  const setUpAgain = (cameraName: string, connection: StreamConnectionInput) =>
    configure.mutate(
      { cameras: [{ device_id: submitted.deviceId, name: cameraName, site_uuid: siteUuid, connection }] },
      {
        onSuccess: (answer) => {
          const fresh = answer.jobs[0];
          if (fresh)
            dispatch({
              type: 'submitted',
              cameras: [{ ...submitted, jobId: fresh.id, name: cameraName, connection }],
            });
        },
        onError,
      },
    );
  const tryAgain = (connection?: StreamConnectionInput) => {
    setFailure(null);
    if (status === 'lost') return setUpAgain(submitted.name, connection ?? submitted.connection);
    retry.mutate(
      { id: submitted.jobId, connection },
      {
        onSuccess: () => {
          if (connection) dispatch({ type: 'submitted', cameras: [{ ...submitted, connection }] });
        },
        onError: (error) => {
          if (isHelperError(error) && error.code === HELPER_ERROR_CODES.notFound)
            setUpAgain(submitted.name, connection ?? submitted.connection);
          else onError(error);
        },
      },
    );
  };
  const submitLogin = (e: FormEvent) => {
    e.preventDefault();
    tryAgain(withLogin(submitted.connection, username, password));
  };
  const submitName = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) setUpAgain(name.trim(), submitted.connection);
  };

  const errorKey = job ? jobErrorKey(job) : null;
  return (
    <li
      data-testid="job"
      data-camera={submitted.name}
      className="flex flex-col gap-3 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium text-white">{submitted.name}</span>
        <StatusChip status={status} />
      </div>
      {status === 'configured' ? (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-300">
          <span>{t(job?.mode === 'bridge' ? 'progress.bridged' : 'progress.direct')}</span>
          <Link
            to={`/cameras/${encodeURIComponent(submitted.name)}`}
            className="text-brand-400 underline-offset-4 hover:underline"
          >
            {t('progress.openCamera', { name: submitted.name })}
          </Link>
        </div>
      ) : null}
      {status === 'lost' ? <Alert>{t('progress.lost')}</Alert> : null}
      {status === 'failed' && job ? (
        <Alert>{errorKey ? t(errorKey) : (job.message ?? t('jobErrors.unknown'))}</Alert>
      ) : null}
      {status === 'failed' && job && needsOtherLogin(job) ? (
        <form
          onSubmit={submitLogin}
          className="flex flex-col gap-3"
          aria-label={t('progress.loginFormLabel', { name: submitted.name })}
        >
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label={t('login.username')}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
            />
            <TextField
              label={t('login.password')}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="new-password"
            />
          </div>
          <Button type="submit" className="self-start" busy={busy}>
            <RefreshCw className="size-4" aria-hidden="true" />
            {t('progress.retryWithLogin')}
          </Button>
        </form>
      ) : status === 'failed' && job && needsOtherName(job) ? (
        <form
          onSubmit={submitName}
          className="flex flex-col gap-3"
          aria-label={t('progress.nameFormLabel', { name: submitted.name })}
        >
          <TextField
            label={t('progress.newName')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
          />
          <Button type="submit" className="self-start" busy={busy}>
            {t('progress.retryWithName')}
          </Button>
        </form>
      ) : status === 'failed' || status === 'lost' ? (
        <Button variant="secondary" className="self-start" onClick={() => tryAgain()} busy={busy}>
          <RefreshCw className="size-4" aria-hidden="true" />
          {t('progress.retry', { name: submitted.name })}
        </Button>
      ) : null}
      {failure ? <Alert>{t('progress.retryFailed', { message: failure })}</Alert> : null}
    </li>
  );
}
