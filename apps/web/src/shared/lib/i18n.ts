import { DEFAULT_LANGUAGE, LANGUAGES } from '@homesitter/contract/runtime';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

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

type Loader = () => Promise<{ default: ResourceKey }>;

/** English and German ship inside the JS bundle (one chunk per language and namespace) and are never fetched. */
const BUNDLED: Record<string, Record<string, Loader>> = {
  en: {
    translation: () => import('../../../public/locales/en/translation.json'),
    legal: () => import('../../../public/locales/en/legal.json'),
    chat: () => import('../../../public/locales/en/chat.json'),
    highlights: () => import('../../../public/locales/en/highlights.json'),
    cameras: () => import('../../../public/locales/en/cameras.json'),
    memories: () => import('../../../public/locales/en/memories.json'),
    discovery: () => import('../../../public/locales/en/discovery.json'),
    billing: () => import('../../../public/locales/en/billing.json'),
  },
  de: {
    translation: () => import('../../../public/locales/de/translation.json'),
    legal: () => import('../../../public/locales/de/legal.json'),
    chat: () => import('../../../public/locales/de/chat.json'),
    highlights: () => import('../../../public/locales/de/highlights.json'),
    cameras: () => import('../../../public/locales/de/cameras.json'),
    memories: () => import('../../../public/locales/de/memories.json'),
    discovery: () => import('../../../public/locales/de/discovery.json'),
    billing: () => import('../../../public/locales/de/billing.json'),
  },
};

/** Bundled languages from their chunks; any other language from `/locales/{lng}/{ns}.json` (docs/product.md §7 "Other"). */
export const localeBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = BUNDLED[language]?.[namespace];
    const pending: Promise<ResourceKey> = load
      ? load().then((m) => m.default)
      : fetch(`/locales/${language}/${namespace}.json`).then((r) => {
          if (!r.ok) throw new Error(`No translation for ${language}/${namespace}`);
          return r.json() as Promise<ResourceKey>;
        });
    pending.then(
      (data) => callback(null, data),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Resolves once the current language's main namespace is loaded. */
export function initI18n(lng = savedLanguage()): Promise<unknown> {
  if (i18n.isInitialized) return Promise.resolve();
  i18n.on('languageChanged', (code) => {
    document.documentElement.lang = code;
  });
  document.documentElement.lang = lng;
  return i18n
    .use(localeBackend)
    .use(initReactI18next)
    .init({
      lng,
      // en and de are complete; only a fetched language falls back to English.
      fallbackLng: (code: string) => (isSupportedLanguage(code) ? [] : [DEFAULT_LANGUAGE]),
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
}

export { i18n };
