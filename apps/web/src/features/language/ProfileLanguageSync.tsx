import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isSupportedLanguage, LANGUAGE_STORAGE_KEY, saveLanguageLocally } from '../../shared/lib/i18n';
import { useProfile } from '../user/profile';

/** On a device with no saved language, adopt the one stored in the profile. */
export function ProfileLanguageSync() {
  const { i18n } = useTranslation();
  const preferred = useProfile().data?.preferred_language;
  useEffect(() => {
    if (!preferred || !isSupportedLanguage(preferred)) return;
    if (window.localStorage.getItem(LANGUAGE_STORAGE_KEY)) return;
    saveLanguageLocally(preferred);
    if (preferred !== i18n.language) void i18n.changeLanguage(preferred);
  }, [preferred, i18n]);
  return null;
}
