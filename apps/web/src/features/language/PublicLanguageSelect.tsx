import { LANGUAGES } from '@homesitter/contract/runtime';
import { useTranslation } from 'react-i18next';
import { Button } from '../../shared/ui/Button';
import { useLanguageChange } from './useLanguageChange';

/** A light language choice for the signed-out screens: a native select (coming-soon entries disabled). */
export function PublicLanguageSelect() {
  const { t } = useTranslation();
  const { current, pending, saving, choose, cancel, confirm } = useLanguageChange();
  const pendingName = LANGUAGES.find((l) => l.code === pending)?.name;
  return (
    <div className="relative">
      <label htmlFor="public-language" className="sr-only">
        {t('language.choose')}
      </label>
      <select
        id="public-language"
        value={pending ?? current}
        disabled={saving}
        onChange={(e) => choose(e.target.value)}
        className="h-9 w-36 rounded-lg bg-slate-800 px-2 text-sm text-slate-100 ring-1 ring-slate-700 focus:ring-2 focus:ring-brand-400 focus:outline-none"
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} disabled={!l.supported}>
            {l.supported ? l.name : `${l.name} · ${t('language.comingSoon')}`}
          </option>
        ))}
      </select>
      {pending ? (
        <div
          role="group"
          aria-label={t('language.confirmTitle')}
          className="absolute right-0 z-40 mt-2 w-64 rounded-lg bg-slate-800 p-3 shadow-xl ring-1 ring-slate-700"
        >
          <p className="mb-3 text-sm text-slate-200">
            {t('language.confirmQuestion', { language: pendingName })}
          </p>
          <div className="flex gap-2">
            <Button variant="secondary" className="h-9 flex-1" onClick={cancel}>
              {t('common.cancel')}
            </Button>
            <Button className="h-9 flex-1" busy={saving} onClick={() => void confirm()} autoFocus>
              {t('common.confirm')}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
