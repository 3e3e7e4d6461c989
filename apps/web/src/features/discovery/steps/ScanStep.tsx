import { RefreshCw, SearchX, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { Spinner } from '../../../shared/ui/Spinner';
import type { ScanState } from '../flow';
import { DeviceList } from '../screens/DeviceList';

/** Seconds since the scan started, up to its limit, ticking once a second while it runs. */
function useElapsed(scan: ScanState): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (scan.status !== 'scanning') return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [scan.status]);
  const max = Math.round(scan.timeoutMs / 1000);
  return scan.startedAt ? Math.min(max, Math.max(0, Math.floor((now - scan.startedAt) / 1000))) : 0;
}

export function ScanProgress({ scan }: { scan: ScanState }) {
  const { t } = useTranslation('discovery');
  const seconds = useElapsed(scan);
  const max = Math.round(scan.timeoutMs / 1000);
  return (
    <div
      role="progressbar"
      aria-label={t('scan.progressLabel')}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={seconds}
      aria-valuetext={t('scan.elapsed', { seconds, max })}
      className="h-1.5 overflow-hidden rounded-full bg-slate-800"
    >
      <div
        className="h-full rounded-full bg-brand-500 transition-[width] duration-1000 ease-linear"
        style={{ width: `${(seconds / max) * 100}%` }}
      />
    </div>
  );
}

/** One line on how the scan went, for everyone (a polite live region). */
export function ScanStatusLine({ scan }: { scan: ScanState }) {
  const { t } = useTranslation('discovery');
  const count = scan.devices.length;
  const found = t('scan.found', { count });
  const text =
    scan.status === 'scanning'
      ? `${t('scan.scanning')} ${found}`
      : scan.status === 'failed'
        ? t('scan.failed')
        : `${t(scan.status === 'stopped' ? 'scan.stopped' : scan.timedOut ? 'scan.timedOut' : 'scan.done', {
            seconds: Math.round(scan.timeoutMs / 1000),
          })} ${found}`;
  return (
    <p
      role="status"
      className="flex items-center gap-2 text-sm text-slate-300"
      data-testid="scan-status"
      data-status={scan.status}
    >
      {scan.status === 'scanning' ? <Spinner size="sm" className="text-brand-400" /> : null}
      {text}
    </p>
  );
}

const TIPS = ['power', 'network', 'onvif', 'vpn', 'guest'] as const;

/** The tips as said to someone scanning from a computer (the helper) or from the phone itself. */
export type ScanTips = 'computer' | 'phone';

/** Nothing recordable found: what usually helps, and the manual way. */
export function EmptyScan({
  onRescan,
  manualTo,
  tips = 'computer',
}: {
  onRescan: () => void;
  manualTo: string | null;
  tips?: ScanTips;
}) {
  const { t } = useTranslation('discovery');
  return (
    <div
      className="flex flex-col gap-3 rounded-xl bg-slate-950/60 p-4 ring-1 ring-slate-800"
      data-testid="scan-empty"
    >
      <h3 className="flex items-center gap-2 font-medium text-white">
        <SearchX className="size-5 text-slate-300" aria-hidden="true" />
        {t('scan.empty.title')}
      </h3>
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-300">
        {TIPS.map((tip) => (
          <li key={tip}>{t(tips === 'phone' ? `phoneFlow.emptyTips.${tip}` : `scan.empty.tips.${tip}`)}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onRescan}>
          <RefreshCw className="size-4" aria-hidden="true" />
          {t('scan.rescan')}
        </Button>
        {manualTo ? (
          <Link
            to={manualTo}
            className="inline-flex h-11 items-center rounded-lg px-4 text-sm font-semibold text-brand-400 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
          >
            {t('scan.empty.manual')}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** Scan controls shared by the discovery flow and the camera test: Stop while it runs, else Scan again. */
export function ScanControls({
  scan,
  onStop,
  onRescan,
}: {
  scan: ScanState;
  onStop: () => void;
  onRescan: () => void;
}) {
  const { t } = useTranslation('discovery');
  return scan.status === 'scanning' ? (
    <Button variant="secondary" onClick={onStop}>
      <Square className="size-4" aria-hidden="true" />
      {t('scan.stop')}
    </Button>
  ) : (
    <Button variant="secondary" onClick={onRescan}>
      <RefreshCw className="size-4" aria-hidden="true" />
      {t('scan.rescan')}
    </Button>
  );
}

/** Step 2: devices stream in for up to 60 s; tick the cameras to add. */
export function ScanStep({
  scan,
  selected,
  onToggle,
  onStart,
  onStop,
  onNext,
  tips,
}: {
  scan: ScanState;
  selected: readonly string[];
  onToggle: (id: string) => void;
  onStart: () => void;
  onStop: () => void;
  onNext: () => void;
  tips?: ScanTips;
}) {
  const { t } = useTranslation('discovery');
  // Arriving here directly (a reload, the forward button) starts a scan.
  useEffect(() => {
    if (scan.status === 'idle') onStart();
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const chosen = scan.devices.filter((d) => d.supported && selected.includes(d.id)).length;
  const nothing =
    scan.status !== 'scanning' && scan.status !== 'idle' && !scan.devices.some((d) => d.supported);

  return (
    <Card className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-white">{t('scan.title')}</h2>
        <ScanControls scan={scan} onStop={onStop} onRescan={onStart} />
      </div>
      <ScanStatusLine scan={scan} />
      {scan.status === 'scanning' ? <ScanProgress scan={scan} /> : null}
      {scan.devices.length > 0 ? (
        <DeviceList
          devices={scan.devices}
          selected={selected}
          onToggle={onToggle}
          label={t('scan.listLabel')}
        />
      ) : null}
      {nothing ? <EmptyScan onRescan={onStart} manualTo="/cameras/add?type=stream" tips={tips} /> : null}
      <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-800 pt-4">
        <span className="text-sm text-slate-400">{t('scan.selected', { count: chosen })}</span>
        <Button onClick={onNext} disabled={chosen === 0}>
          {t('scan.next')}
        </Button>
      </div>
    </Card>
  );
}
