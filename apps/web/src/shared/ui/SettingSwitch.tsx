import * as Switch from '@radix-ui/react-switch';
import { useId, type ReactNode } from 'react';
import { cn } from './cn';

export interface SettingSwitchProps {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  highlighted?: boolean;
  id?: string;
}

export function SettingSwitch({
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  highlighted,
  id,
}: SettingSwitchProps) {
  const autoId = useId();
  const switchId = id ?? autoId;
  return (
    <div
      className={cn(
        'flex items-start justify-between gap-4 rounded-xl px-1 py-3',
        highlighted && 'animate-highlight',
      )}
    >
      <div className="min-w-0">
        <label htmlFor={switchId} className="block text-sm font-medium text-slate-100">
          {label}
        </label>
        {description ? (
          <p id={`${switchId}-desc`} className="mt-1 text-sm text-slate-400">
            {description}
          </p>
        ) : null}
      </div>
      <Switch.Root
        id={switchId}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={description ? `${switchId}-desc` : undefined}
        className="relative mt-0.5 h-7 w-12 shrink-0 rounded-full bg-slate-600 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400 disabled:opacity-50 data-[state=checked]:bg-brand-500"
      >
        <Switch.Thumb className="block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </Switch.Root>
    </div>
  );
}
