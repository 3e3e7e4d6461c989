import { Check, Home } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../shared/ui/cn';
import { useSites } from '../cameras/api';

/** The properties a memory belongs to, as toggle chips. */
export function PropertyChips(props: {
  selected: string[];
  onChange: (next: string[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('memories');
  const sites = useSites();
  const list = sites.data ?? [];
  return (
    <fieldset className="flex flex-col gap-2" disabled={props.disabled}>
      <legend className="mb-1 text-sm font-medium text-slate-200">{t('properties.label')}</legend>
      {list.length === 0 ? (
        <p className="text-sm text-slate-400">
          {sites.isPending ? t('properties.loading') : t('properties.none')}
        </p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {list.map((site) => {
            const on = props.selected.includes(site.site_uuid);
            return (
              <button
                key={site.site_uuid}
                type="button"
                aria-pressed={on}
                onClick={() =>
                  props.onChange(
                    on
                      ? props.selected.filter((id) => id !== site.site_uuid)
                      : [...props.selected, site.site_uuid],
                  )
                }
                className={cn(
                  'inline-flex h-9 items-center gap-1.5 rounded-full px-3 text-sm ring-1 transition-colors focus-visible:outline-2 focus-visible:outline-brand-400',
                  on
                    ? 'bg-brand-500/20 text-brand-200 ring-brand-500'
                    : 'bg-slate-900 text-slate-300 ring-slate-700 hover:bg-slate-800',
                )}
              >
                {on ? (
                  <Check className="size-3.5" aria-hidden="true" />
                ) : (
                  <Home className="size-3.5" aria-hidden="true" />
                )}
                {site.name}
              </button>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
