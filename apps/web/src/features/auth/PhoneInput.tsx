import { ChevronDown } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';
import { flagOf } from './flag';
import type { PhoneValue } from './phone';

const CountryPicker = lazy(() => import('./CountryPicker').then((m) => ({ default: m.CountryPicker })));

export interface PhoneInputProps {
  value: PhoneValue;
  onChange: (value: PhoneValue) => void;
  onBlur?: () => void;
  error?: string | null;
  label: string;
  hint?: string;
  disabled?: boolean;
}

/** Optional phone number: a country dropdown (default US) and the national number; the code itself is fixed. */
export function PhoneInput({ value, onChange, onBlur, error, label, hint, disabled }: PhoneInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <div className="relative flex">
        <button
          type="button"
          disabled={disabled}
          onClick={() => setOpen((o) => !o)}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-label={t('phone.countryButton', { country: value.country, code: value.callingCode })}
          data-testid="phone-country"
          className="flex h-11 shrink-0 items-center gap-1.5 rounded-l-lg bg-slate-800 px-3 text-sm text-slate-100 ring-1 ring-slate-700 hover:bg-slate-700 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          <span aria-hidden="true">{flagOf(value.country)}</span>
          <span>+{value.callingCode}</span>
          <ChevronDown className="size-4 text-slate-400" aria-hidden="true" />
        </button>
        <input
          id={id}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          disabled={disabled}
          value={value.national}
          onChange={(e) => onChange({ ...value, national: e.target.value.replace(/[^\d\s()-]/g, '') })}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          placeholder={t('phone.placeholder')}
          className={cn(
            'h-11 w-full min-w-0 rounded-r-lg bg-slate-900 px-3 text-base text-slate-100 ring-1 ring-slate-700 placeholder:text-slate-400 focus:z-10 focus:ring-2 focus:ring-brand-400 focus:outline-none',
            error && 'ring-red-400',
          )}
        />
        {open ? (
          <Suspense fallback={null}>
            <CountryPicker
              selected={value.country}
              onClose={() => setOpen(false)}
              onSelect={(c) => {
                onChange({ ...value, country: c.code, callingCode: c.callingCode });
                setOpen(false);
              }}
            />
          </Suspense>
        ) : null}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
