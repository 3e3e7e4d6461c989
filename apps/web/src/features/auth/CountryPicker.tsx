import { COUNTRY_SEARCH_DEBOUNCE_MS } from '@homesitter/contract/runtime';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inputClass } from '../../shared/ui/TextField';
import { Spinner } from '../../shared/ui/Spinner';
import type { Country } from './countries';
import { flagOf } from './flag';
import { useDebouncedValue } from './useDebouncedValue';

export interface CountryPickerProps {
  selected: string;
  onSelect: (country: Country) => void;
  onClose: () => void;
}

/** The country list of the phone input, searched with a 250 ms debounce (docs/product.md §5). */
export function CountryPicker({ selected, onSelect, onClose }: CountryPickerProps) {
  const { t, i18n } = useTranslation();
  const [countries, setCountries] = useState<Country[] | null>(null);
  const [query, setQuery] = useState('');
  const debounced = useDebouncedValue(query, COUNTRY_SEARCH_DEBOUNCE_MS);
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let cancelled = false;
    void import('./countries').then((m) => {
      if (!cancelled) setCountries(m.listCountries(i18n.language));
    });
    return () => {
      cancelled = true;
    };
  }, [i18n.language]);

  useEffect(() => searchRef.current?.focus(), []);

  const visible = useMemo(() => {
    const q = debounced.trim().toLowerCase().replace(/^\+/, '');
    if (!countries || !q) return countries ?? [];
    return countries.filter(
      (c) => c.name.toLowerCase().includes(q) || c.code.toLowerCase() === q || c.callingCode.startsWith(q),
    );
  }, [countries, debounced]);

  return (
    <div
      role="dialog"
      aria-label={t('phone.chooseCountry')}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      className="absolute top-full left-0 z-40 mt-2 w-72 rounded-xl bg-slate-800 p-2 shadow-xl ring-1 ring-slate-700"
    >
      <label className="sr-only" htmlFor="country-search">
        {t('phone.searchCountries')}
      </label>
      <input
        id="country-search"
        ref={searchRef}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={t('phone.searchCountries')}
        className={inputClass}
        autoComplete="off"
      />
      {countries ? null : (
        <div className="flex justify-center p-4 text-slate-300">
          <Spinner />
        </div>
      )}
      <ul className="mt-2 max-h-64 overflow-y-auto" aria-label={t('phone.countries')}>
        {visible.map((c) => (
          <li key={c.code}>
            <button
              type="button"
              aria-current={c.code === selected || undefined}
              onClick={() => onSelect(c)}
              className="flex w-full items-center gap-2 rounded-md px-2 py-2 text-left text-sm text-slate-100 hover:bg-slate-700 focus-visible:bg-slate-700 focus-visible:outline-none aria-[current]:bg-slate-700"
            >
              <span aria-hidden="true">{flagOf(c.code)}</span>
              <span className="flex-1 truncate">{c.name}</span>
              <span className="text-slate-400">+{c.callingCode}</span>
            </button>
          </li>
        ))}
        {countries && visible.length === 0 ? (
          <li className="px-2 py-3 text-sm text-slate-400">{t('phone.noCountries')}</li>
        ) : null}
      </ul>
    </div>
  );
}
