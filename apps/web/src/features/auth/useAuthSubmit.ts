import { MESSAGES, normalizePhone } from '@homesitter/contract/runtime';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, session } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { ApiError } from '../../shared/lib/http';
import { i18n, isSupportedLanguage } from '../../shared/lib/i18n';
import type { FromState } from '../../shared/lib/returnPath';
import { notify } from '../../shared/lib/toast';
import { newProfileBody, profileKey } from '../user/profile';
import { leaveTo, withToken } from './redirect';
import { signupStatusKey } from './signup';

export type AuthMode = 'signUp' | 'signIn';

export interface AuthValues {
  email: string;
  password: string;
  /** `+<code><digits>` or '' */
  phone: string;
}

export interface AuthSubmitOptions {
  mode: AuthMode;
  /** A trusted external address that receives the token. */
  redirect: string | null;
  from: FromState['from'];
}

/**
 * docs/product.md §4 sign-up (identity account → verification mail → token → profile) and sign-in, then either the
 * external redirect with `?token=` or /verify-email (which moves on at once for a verified user).
 */
export function useAuthSubmit({ mode, redirect, from }: AuthSubmitOptions) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signUp(values: AuthValues) {
    const phone = values.phone ? normalizePhone(values.phone) : undefined;
    const language = i18n.language;
    const created = await api.call('signUp', {
      body: {
        email: values.email,
        password: values.password,
        phone,
        preferred_language: isSupportedLanguage(language) ? language : undefined,
      },
    });
    if (!created.idToken || !created.user) throw new Error(t('auth.signUpFailed'));
    session.establish(created);
    try {
      const profile = await api.call('createUser', { body: newProfileBody(phone) });
      queryClient.setQueryData(profileKey, profile.data);
    } catch (cause) {
      throw cause instanceof ApiError && cause.status > 0 ? cause : new Error(MESSAGES.createUserFailed);
    }
    notify.success(t('auth.accountCreated'));
  }

  async function signIn(values: AuthValues) {
    const signedIn = await api.call('signIn', { body: { email: values.email, password: values.password } });
    session.establish(signedIn);
    notify.success(t('auth.signedIn'));
  }

  async function submit(values: AuthValues) {
    setProcessing(true);
    setError(null);
    try {
      if (mode === 'signUp') await signUp(values);
      else await signIn(values);
      setDone(true);
      if (redirect) {
        const token = await session.getIdToken();
        if (!token) throw new Error(MESSAGES.noTokenAfterSignin);
        leaveTo(withToken(redirect, token));
        return;
      }
      await navigate('/verify-email', { replace: true, state: { from, sent: mode === 'signUp' } });
    } catch (cause) {
      setDone(false);
      if (cause instanceof ApiError && cause.code === 'auth.signup_disabled') {
        await queryClient.invalidateQueries({ queryKey: signupStatusKey });
      }
      setError(errorText(t, cause, t('auth.authenticationFailed')));
    } finally {
      setProcessing(false);
    }
  }

  /**
   * An already signed-in user sends a fresh token to the trusted `redirect` (the desktop helper's callback)
   * without typing the password again. Fresh: the helper trades it for a session of its own, which the
   * server allows only for an ID token at most 10 minutes old.
   */
  async function continueAsSignedIn() {
    if (!redirect) return;
    setProcessing(true);
    setError(null);
    try {
      const token = await session.getIdToken(true);
      if (!token) throw new Error(MESSAGES.noTokenAfterSignin);
      setDone(true);
      leaveTo(withToken(redirect, token));
    } catch (cause) {
      setDone(false);
      setError(errorText(t, cause, t('auth.authenticationFailed')));
    } finally {
      setProcessing(false);
    }
  }

  return { submit, continueAsSignedIn, processing, done, error, clearError: () => setError(null) };
}
