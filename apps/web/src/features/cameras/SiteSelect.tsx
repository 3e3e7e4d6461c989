import type { Site } from '@homesitter/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { inputClass } from '../../shared/ui/TextField';

/** A property picker with "No property" first. */
export function SiteSelect(props: {
  sites: Site[];
  value: string | null;
  onChange: (siteUuid: string | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('cameras');
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {t('propertyLabel')}
      </label>
      <select
        id={id}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value || null)}
        className={inputClass}
      >
        <option value="">{t('noProperty')}</option>
        {props.sites.map((s) => (
          <option key={s.site_uuid} value={s.site_uuid}>
            {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}
