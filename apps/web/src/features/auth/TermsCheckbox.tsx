import { useTranslation } from 'react-i18next';

const linkClass = 'text-brand-400 underline underline-offset-2 hover:text-brand-400/80';

export function TermsCheckbox({
  checked,
  onChange,
  error,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-3">
        <input
          id="accept-terms"
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'accept-terms-error' : undefined}
          className="mt-0.5 size-5 shrink-0 accent-brand-500"
        />
        <label htmlFor="accept-terms" className="text-sm text-slate-300">
          {t('auth.termsPrefix')}{' '}
          <a href="/terms" target="_blank" rel="noopener noreferrer" className={linkClass}>
            {t('auth.termsOfService')}
          </a>{' '}
          {t('auth.termsAnd')}{' '}
          <a href="/privacy" target="_blank" rel="noopener noreferrer" className={linkClass}>
            {t('auth.privacyPolicy')}
          </a>
        </label>
      </div>
      {error ? (
        <p id="accept-terms-error" role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
