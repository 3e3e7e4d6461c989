import { initReactI18next } from 'react-i18next';
import deCameras from '../../public/locales/de/cameras.json';
import deDiscovery from '../../public/locales/de/discovery.json';
import deLegal from '../../public/locales/de/legal.json';
import de from '../../public/locales/de/translation.json';
import enCameras from '../../public/locales/en/cameras.json';
import enDiscovery from '../../public/locales/en/discovery.json';
import enLegal from '../../public/locales/en/legal.json';
import en from '../../public/locales/en/translation.json';
import { i18n } from '../shared/lib/i18n';

/** i18next with both bundled languages in memory, for component tests. */
export async function setupTestI18n() {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: 'en',
      fallbackLng: false,
      resources: { en: { translation: en, legal: enLegal }, de: { translation: de, legal: deLegal } },
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  }
  await i18n.changeLanguage('en');
  return i18n;
}

/** The same, with the cameras screens' namespace loaded too. */
export async function setupCamerasTestI18n() {
  const i18n = await setupTestI18n();
  i18n.addResourceBundle('en', 'cameras', enCameras);
  i18n.addResourceBundle('de', 'cameras', deCameras);
  return i18n;
}

/** The discovery flow and camera test: `discovery` plus `cameras` (the fields they share). */
export async function setupDiscoveryTestI18n() {
  const i18n = await setupCamerasTestI18n();
  i18n.addResourceBundle('en', 'discovery', enDiscovery);
  i18n.addResourceBundle('de', 'discovery', deDiscovery);
  return i18n;
}
