import type { UserProfile } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/lib/api';
import { isSupportedLanguage, saveLanguageLocally, savedLanguage } from '../../shared/lib/i18n';
import { notify } from '../../shared/lib/toast';
import { useSession } from '../../shared/lib/useSession';
import { profileKey } from '../user/profile';

export type SaveLanguage = (code: 'en' | 'de') => Promise<UserProfile>;

const saveOnServer: SaveLanguage = async (code) =>
  (await api.call('updatePreferredLanguage', { body: { preferred_language: code } })).data;

/**
 * docs/product.md §4 "Language change": a choice is previewed and pending until confirmed; cancel goes back to the saved
 * language (or English); confirm saves locally and on the server and undoes both if the server says no.
 */
export function useLanguageChange(saveRemote: SaveLanguage = saveOnServer) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { status, isVerified } = useSession();
  const [pending, setPending] = useState<'en' | 'de' | null>(null);
  const [saving, setSaving] = useState(false);
  const current = i18n.resolvedLanguage ?? i18n.language;

  /** Answers false when nothing changes (coming soon, or the language already shown). */
  function choose(code: string): boolean {
    if (!isSupportedLanguage(code) || code === current) return false;
    setPending(code);
    void i18n.changeLanguage(code);
    return true;
  }

  function cancel() {
    setPending(null);
    void i18n.changeLanguage(savedLanguage());
  }

  async function confirm() {
    if (!pending) return;
    const previous = savedLanguage();
    saveLanguageLocally(pending);
    setSaving(true);
    try {
      if (status === 'signedIn' && isVerified) {
        const profile = await saveRemote(pending);
        queryClient.setQueryData(profileKey, profile);
      }
    } catch {
      saveLanguageLocally(previous);
      await i18n.changeLanguage(previous);
      notify.error(t('toasts.updateLanguageError'));
    } finally {
      setPending(null);
      setSaving(false);
    }
  }

  return { current, pending, saving, choose, cancel, confirm };
}

/** docs/product.md §2: the list opens upward when there is not room below for its 35%-of-viewport height. */
export function dropdownSide(
  triggerBottom: number,
  viewportHeight: number,
  maxHeightVh: number,
): 'top' | 'bottom' {
  const needed = (viewportHeight * maxHeightVh) / 100 + 8;
  return viewportHeight - triggerBottom < needed ? 'top' : 'bottom';
}
