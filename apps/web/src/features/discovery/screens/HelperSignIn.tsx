import type { HelperStatus } from '@homesitter/contract';
import { CheckCircle2, ExternalLink, LogIn } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Spinner } from '../../../shared/ui/Spinner';
import { helperSignInUrl } from '../helperClient';
import { useSignOutHelper } from '../useHelper';

/** Whether the helper is signed in as the account using this page (email compared ignoring case). */
export function helperSignedInAs(status: HelperStatus, email: string | null | undefined): boolean {
  return status.signed_in && !!email && status.email?.toLowerCase() === email.toLowerCase();
}

/** "Homesitter helper 1.4.0 runs on this computer", and as whom it is signed in. */
export function HelperStatusLine({ status }: { status: HelperStatus }) {
  const { t } = useTranslation('discovery');
  return (
    <p role="status" className="flex items-start gap-2 text-sm text-emerald-200">
      <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        {t('helper.running', { version: status.version })}{' '}
        {status.signed_in && status.email ? t('helper.signedInAs', { email: status.email }) : null}
      </span>
    </p>
  );
}

/**
 * Signing the helper in: the helper's `/sign-in` opens in a new tab and leads to `/auth` (where a signed-in
 * browser only confirms), and the caller polls `/status` until it says signed in. A helper signed in as someone
 * else is offered a sign-out first.
 */
export function HelperSignIn({ status, email }: { status: HelperStatus; email: string | null | undefined }) {
  const { t } = useTranslation('discovery');
  const [opened, setOpened] = useState(false);
  const signOut = useSignOutHelper();

  if (status.signed_in && !helperSignedInAs(status, email)) {
    return (
      <div className="flex flex-col items-start gap-3" data-testid="helper-other-account">
        <Alert tone="info">
          {t('helper.otherAccount', { helperEmail: status.email ?? '', email: email ?? '' })}
        </Alert>
        <Button variant="secondary" onClick={() => signOut.mutate()} busy={signOut.isPending}>
          {t('helper.signOut')}
        </Button>
      </div>
    );
  }
  if (status.signed_in) return null;
  return (
    <div className="flex flex-col items-start gap-3" data-testid="helper-sign-in">
      <p className="text-sm text-slate-300">{t('helper.signedOut')}</p>
      <a
        href={helperSignInUrl()}
        target="_blank"
        rel="noopener"
        onClick={() => setOpened(true)}
        className="inline-flex h-11 items-center gap-2 rounded-lg bg-brand-500 px-4 text-sm font-semibold text-slate-950 hover:bg-brand-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
      >
        <LogIn className="size-4" aria-hidden="true" />
        {t('helper.signIn')}
        <ExternalLink className="size-4" aria-hidden="true" />
        <span className="sr-only">{t('helper.newTab')}</span>
      </a>
      <p className="text-xs text-slate-400">{t('helper.signInHint')}</p>
      {opened ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
          <Spinner size="sm" />
          {t('helper.waitingForSignIn')}
        </p>
      ) : null}
    </div>
  );
}
