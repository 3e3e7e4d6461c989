import {
  MonitorX,
  PlugZap,
  PowerOff,
  RefreshCw,
  ShieldAlert,
  TriangleAlert,
  type LucideIcon,
} from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { HELPER_ORIGIN } from '@homesitter/contract/runtime';
import { pageIsHttps, type HelperProblem } from '../helperProblems';
import { HelperDownloads } from './HelperDownloads';

const ICONS: Record<HelperProblem['kind'], LucideIcon> = {
  not_running: PlugZap,
  blocked: ShieldAlert,
  outdated: TriangleAlert,
  origin_not_allowed: MonitorX,
  stopped: PowerOff,
};

const helperAddress = HELPER_ORIGIN.replace(/^https?:\/\//, '');

/** What keeps a page from a helper that runs: an ad blocker, Chrome's local-network prompt, mixed content. */
export function BlockedHints() {
  const { t } = useTranslation('discovery');
  const https = pageIsHttps();
  return (
    <ul className="list-disc space-y-2 pl-5 text-sm text-slate-300">
      <li>{t('problems.blocked.adBlocker', { address: helperAddress })}</li>
      <li>{t('problems.blocked.chrome')}</li>
      <li>{t(https ? 'problems.blocked.safariHttps' : 'problems.blocked.safari')}</li>
      <li>{t('problems.blocked.firefox')}</li>
    </ul>
  );
}

function Body({ problem }: { problem: HelperProblem }) {
  const { t } = useTranslation('discovery');
  switch (problem.kind) {
    case 'not_running':
      return (
        <>
          <p>{t('problems.not_running.text')}</p>
          <HelperDownloads />
          <details className="rounded-lg bg-slate-950/60 p-3 ring-1 ring-slate-800">
            <summary className="cursor-pointer font-medium text-slate-200">
              {t('problems.not_running.runningAlready')}
            </summary>
            <div className="mt-3">
              <BlockedHints />
            </div>
          </details>
        </>
      );
    case 'blocked':
      return (
        <>
          <p>{t(`problems.blocked.${problem.evidence === 'server' ? 'textServer' : 'textNoCors'}`)}</p>
          <BlockedHints />
          {problem.evidence === 'no_cors' ? (
            <p>{t('problems.blocked.otherAddress', { origin: window.location.origin })}</p>
          ) : null}
        </>
      );
    case 'outdated':
      return (
        <>
          <p>
            {problem.version
              ? t('problems.outdated.textVersion', { address: helperAddress, version: problem.version })
              : t('problems.outdated.text', { address: helperAddress })}
          </p>
          <p>{t('problems.outdated.update')}</p>
          <HelperDownloads />
        </>
      );
    case 'origin_not_allowed':
      return <p>{t('problems.origin_not_allowed.text', { origin: window.location.origin })}</p>;
    case 'stopped':
      return <p>{t('problems.stopped.text')}</p>;
  }
}

/**
 * One screen per reason the helper cannot be used (helperProblems.ts says how each is told apart), with a
 * way to look again. Screens that wait for the helper also look again by themselves every few seconds.
 */
export function HelperProblemScreen({
  problem,
  onRetry,
  retrying = false,
  children,
}: {
  problem: HelperProblem;
  onRetry: () => void;
  retrying?: boolean;
  /** More to say below (the camera test: how upload cameras connect without the helper). */
  children?: ReactNode;
}) {
  const { t } = useTranslation('discovery');
  const titleId = useId();
  const Icon = ICONS[problem.kind];
  const stopped = problem.kind === 'stopped';
  return (
    <div className="flex flex-col gap-4">
      <Card aria-labelledby={titleId} data-testid="helper-problem" data-problem={problem.kind}>
        <div className="flex gap-3">
          <Icon className="mt-0.5 size-6 shrink-0 text-amber-300" aria-hidden="true" />
          <div className="flex min-w-0 flex-1 flex-col gap-4 text-sm leading-relaxed text-slate-300">
            <h2 id={titleId} className="text-lg font-semibold text-white">
              {t(`problems.${problem.kind}.title`)}
            </h2>
            <Body problem={problem} />
            <div className="flex flex-wrap items-center gap-3">
              <Button variant={stopped ? 'primary' : 'secondary'} onClick={onRetry} busy={retrying}>
                <RefreshCw className="size-4" aria-hidden="true" />
                {t(stopped ? 'problems.stopped.retry' : 'problems.checkAgain')}
              </Button>
              {stopped ? null : <span className="text-xs text-slate-400">{t('problems.autoCheck')}</span>}
            </div>
          </div>
        </div>
      </Card>
      {children}
    </div>
  );
}
