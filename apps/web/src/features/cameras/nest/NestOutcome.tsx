import { NEST_LINK_OUTCOMES, NEST_OUTCOME_PARAM, type NestLinkOutcome } from '@homesitter/contract/runtime';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../shared/ui/Alert';

const isOutcome = (v: string | null): v is NestLinkOutcome =>
  v !== null && (NEST_LINK_OUTCOMES as readonly string[]).includes(v);

/** How the Google consent round trip ended (`/cameras?nest=`), each outcome in its own words. */
export function NestOutcome() {
  const { t } = useTranslation('cameras');
  const [search, setSearch] = useSearchParams();
  const outcome = search.get(NEST_OUTCOME_PARAM);
  if (!isOutcome(outcome)) return null;
  const dismiss = () => {
    const next = new URLSearchParams(search);
    next.delete(NEST_OUTCOME_PARAM);
    setSearch(next, { replace: true });
  };
  return (
    <div className="mb-6 flex items-start gap-2" data-testid="nest-outcome" data-outcome={outcome}>
      <div className="flex-1">
        <Alert tone={outcome === 'linked' ? 'success' : 'error'}>{t(`nest.outcomes.${outcome}`)}</Alert>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label={t('nest.dismiss')}
        className="flex size-9 items-center justify-center rounded-lg text-slate-400 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
