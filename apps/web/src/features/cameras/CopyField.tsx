import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../shared/lib/toast';

/** A read-only value with a copy button. */
export function CopyField({
  label,
  value,
  secret = false,
}: {
  label: string;
  value: string;
  secret?: boolean;
}) {
  const { t } = useTranslation('cameras');
  const [copied, setCopied] = useState(false);
  const [shown, setShown] = useState(!secret);
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => {
        setCopied(true);
        notify.success(t('setup.copied', { label }));
      },
      () => notify.error(t('setup.copyFailed')),
    );
  };
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-xs font-medium tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-lg bg-slate-950 px-3 py-2 font-mono text-sm text-slate-100 ring-1 ring-slate-800">
          {shown ? value : '•'.repeat(12)}
        </code>
        {secret ? (
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            className="rounded-lg px-2 py-2 text-xs text-slate-300 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-brand-400"
          >
            {shown ? t('setup.hide') : t('setup.show')}
          </button>
        ) : null}
        <button
          type="button"
          onClick={copy}
          aria-label={t('setup.copy', { label })}
          className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
        >
          {copied ? (
            <Check className="size-4 text-emerald-300" aria-hidden="true" />
          ) : (
            <Copy className="size-4" aria-hidden="true" />
          )}
        </button>
      </dd>
    </div>
  );
}
