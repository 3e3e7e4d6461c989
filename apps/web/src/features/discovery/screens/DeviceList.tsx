import type { DiscoveredDevice } from '@homesitter/contract';
import { Ban, Lock } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../shared/ui/cn';
import { deviceTitle } from '../flow';
import { unsupportedReason } from '../helperProblems';

function DeviceLine({ device }: { device: DiscoveredDevice }) {
  const { t } = useTranslation('discovery');
  const model = [device.manufacturer, device.model].filter(Boolean).join(' ');
  const title = deviceTitle(device);
  const facts = [
    model && model !== title ? model : null,
    device.address,
    device.mac ? t('device.mac', { mac: device.mac }) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const protocols = [device.onvif ? 'ONVIF' : null, device.rtsp ? 'RTSP' : null].filter(Boolean).join(', ');
  return (
    <span className="flex min-w-0 flex-1 flex-col gap-0.5">
      <span className="flex items-center gap-2 font-medium text-white">
        <span className="truncate">{title}</span>
        {device.needs_credentials ? (
          <>
            <Lock className="size-4 shrink-0 text-slate-300" aria-hidden="true" />
            <span className="sr-only">{t('device.needsLogin')}</span>
          </>
        ) : null}
      </span>
      <span className="text-xs break-all text-slate-400">{facts}</span>
      {protocols ? <span className="text-xs text-slate-400">{protocols}</span> : null}
    </span>
  );
}

function Reason({ device, id }: { device: DiscoveredDevice; id: string }) {
  const { t } = useTranslation('discovery');
  const reason = unsupportedReason(device);
  return (
    <span id={id} className="mt-1 flex items-center gap-1.5 text-xs text-amber-200">
      <Ban className="size-3.5 shrink-0" aria-hidden="true" />
      {t('device.notSupported')}: {'key' in reason ? t(reason.key) : reason.text}
    </span>
  );
}

function DeviceItem({
  device,
  mode,
  group,
  checked,
  onToggle,
}: {
  device: DiscoveredDevice;
  mode: 'multiple' | 'single';
  group: string;
  checked: boolean;
  onToggle: (id: string) => void;
}) {
  const reasonId = useId();
  const disabled = !device.supported;
  return (
    <li data-testid="found-device" data-address={device.address} data-supported={device.supported}>
      <label
        className={cn(
          'flex gap-3 rounded-xl p-3 ring-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-400',
          disabled
            ? 'cursor-not-allowed bg-slate-950 opacity-70 ring-slate-800'
            : checked
              ? 'cursor-pointer bg-slate-800 ring-brand-500'
              : 'cursor-pointer bg-slate-900 ring-slate-700 hover:bg-slate-800',
        )}
      >
        <input
          type={mode === 'multiple' ? 'checkbox' : 'radio'}
          name={mode === 'single' ? group : undefined}
          checked={checked}
          disabled={disabled}
          onChange={() => onToggle(device.id)}
          aria-describedby={disabled ? reasonId : undefined}
          className="mt-1 size-4 shrink-0 accent-brand-500"
        />
        <span className="flex min-w-0 flex-1 flex-col">
          <DeviceLine device={device} />
          {disabled ? <Reason device={device} id={reasonId} /> : null}
        </span>
      </label>
    </li>
  );
}

/**
 * The devices a scan found, as they stream in: cameras to tick (or pick one of), the ones Homesitter cannot
 * record greyed out with the reason. A lock marks a camera that asked for a login.
 */
export function DeviceList({
  devices,
  selected,
  onToggle,
  mode = 'multiple',
  label,
}: {
  devices: DiscoveredDevice[];
  selected: readonly string[];
  onToggle: (id: string) => void;
  mode?: 'multiple' | 'single';
  label: string;
}) {
  const group = useId();
  return (
    <ul aria-label={label} className="flex flex-col gap-2">
      {devices.map((device) => (
        <DeviceItem
          key={device.id}
          device={device}
          mode={mode}
          group={group}
          checked={selected.includes(device.id)}
          onToggle={onToggle}
        />
      ))}
    </ul>
  );
}
