import { DEFAULT_LANGUAGE, LANGUAGES } from '@homesitter/contract';
import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import de from '../../../public/locales/de/translation.json';
import en from '../../../public/locales/en/translation.json';

export const LANGUAGE_STORAGE_KEY = 'homesitter.language';

export function isSupportedLanguage(code: string | null | undefined): code is 'en' | 'de' {
  return LANGUAGES.some((l) => l.code === code && l.supported);
}

/** The saved language (local storage), else English. */
export function savedLanguage(): string {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isSupportedLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function saveLanguageLocally(code: string | null) {
  if (code) window.localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  else window.localStorage.removeItem(LANGUAGE_STORAGE_KEY);
}

/**
 * English and German ship inside the bundle and are never fetched; any other language is loaded from
 * `/locales/{lng}/translation.json` (spec §7 "Other").
 */
export function initI18n(lng = savedLanguage()) {
  if (i18n.isInitialized) return i18n;
  void i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: DEFAULT_LANGUAGE,
      resources: { en: { translation: en }, de: { translation: de } },
      partialBundledLanguages: true,
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
  document.documentElement.lang = lng;
  i18n.on('languageChanged', (code) => {
    document.documentElement.lang = code;
  });
  return i18n;
}

export { i18n };
