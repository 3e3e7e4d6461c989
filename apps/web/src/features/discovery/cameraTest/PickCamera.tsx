import type { DiscoveredDevice } from '@homesitter/contract';
import { Keyboard, Radar } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import type { ScanState } from '../flow';
import { DeviceList } from '../screens/DeviceList';
import { EmptyScan, ScanControls, ScanProgress, ScanStatusLine } from '../steps/ScanStep';

/** The camera test's first step: scan and pick one camera, or type its address. */
export function PickCamera({
  scan,
  onScan,
  onStop,
  onPick,
  onManual,
}: {
  scan: ScanState;
  onScan: () => void;
  onStop: () => void;
  onPick: (device: DiscoveredDevice) => void;
  onManual: () => void;
}) {
  const { t } = useTranslation('discovery');
  // A radio group: arrow keys move the choice, Continue takes it (choosing alone never leaves the list).
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = scan.devices.find((d) => d.id === picked && d.supported) ?? null;
  const nothing =
    scan.status !== 'scanning' && scan.status !== 'idle' && !scan.devices.some((d) => d.supported);
  return (
    <Card className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-white">{t('cameraTest.pickTitle')}</h2>
        {scan.status === 'idle' ? null : <ScanControls scan={scan} onStop={onStop} onRescan={onScan} />}
      </div>
      {scan.status === 'idle' ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-sm text-slate-300">{t('cameraTest.scanIntro')}</p>
          <Button onClick={onScan}>
            <Radar className="size-4" aria-hidden="true" />
            {t('cameraTest.scan')}
          </Button>
        </div>
      ) : (
        <>
          <ScanStatusLine scan={scan} />
          {scan.status === 'scanning' ? <ScanProgress scan={scan} /> : null}
        </>
      )}
      {scan.devices.length > 0 ? (
        <DeviceList
          devices={scan.devices}
          selected={chosen ? [chosen.id] : []}
          mode="single"
          label={t('scan.listLabel')}
          onToggle={setPicked}
        />
      ) : null}
      {nothing ? <EmptyScan onRescan={onScan} manualTo={null} /> : null}
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-800 pt-4">
        <Button variant="secondary" onClick={onManual}>
          <Keyboard className="size-4" aria-hidden="true" />
          {t('cameraTest.typeAddress')}
        </Button>
        <Button onClick={() => chosen && onPick(chosen)} disabled={!chosen}>
          {t('cameraTest.useCamera')}
        </Button>
      </div>
    </Card>
  );
}
