import { EMAIL_RESEND_WAIT_S, MESSAGES } from '@homesitter/contract/runtime';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, session } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { ApiError } from '../../shared/lib/http';
import { notify } from '../../shared/lib/toast';
import { secondsFromRateLimit, useCountdown } from './useCountdown';

/**
 * Verify-email logic: applies `?code=` from the mailed link, resends with a 60 s wait, and re-reads the
 * token (which carries `email_verified`) when the user comes back to the tab.
 */
export function useEmailVerification(code: string | null, justSent: boolean) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useCountdown(justSent ? EMAIL_RESEND_WAIT_S : 0);
  const [sending, setSending] = useState(false);
  const [verifying, setVerifying] = useState(Boolean(code));
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const appliedCode = useRef<string | null>(null);

  useEffect(() => {
    if (!code || appliedCode.current === code) return;
    appliedCode.current = code;
    void (async () => {
      try {
        await api.call('verifyEmail', { body: { code } });
        await session.refresh();
        notify.success(t('verifyEmail.verified'));
      } catch (cause) {
        setError(errorText(t, cause, t('verifyEmail.invalidCode')));
      } finally {
        setVerifying(false);
      }
    })();
  }, [code, t]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void session.refresh().catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  async function resend() {
    setSending(true);
    setError(null);
    try {
      const answer = await api.call('sendVerificationEmail');
      setSeconds(answer.data.retryAfterSeconds || EMAIL_RESEND_WAIT_S);
      notify.success(t('verifyEmail.sent'));
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 429) {
        setSeconds(secondsFromRateLimit(cause, EMAIL_RESEND_WAIT_S));
      } else {
        setError(errorText(t, cause, MESSAGES.sendVerificationEmailFailed));
      }
    } finally {
      setSending(false);
    }
  }

  /** "I have verified": fetch a fresh token and let the page move on if it says verified. */
  async function check() {
    setChecking(true);
    try {
      await session.refresh();
      if (!session.isVerified()) notify.info(t('verifyEmail.notYet'));
    } catch (cause) {
      setError(errorText(t, cause, t('auth.authenticationFailed')));
    } finally {
      setChecking(false);
    }
  }

  return { seconds, sending, verifying, checking, error, resend, check };
}
