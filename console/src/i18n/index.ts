import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

/** The console's languages: English and French (area C's field names are French). */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * i18next with one JSON file per language and namespace under `src/locales/<lng>/<ns>.json`,
 * each loaded on first use (so the voting page downloads only its own strings). The language
 * comes from a previous choice (localStorage `fieldhouse.lang`), else from the browser, else
 * English; {@link setLanguage} switches and remembers it.
 */
/** Settles once i18next is initialised with the detected language and its `common` strings. */
export const i18nReady: Promise<unknown> = i18n
  .use(LanguageDetector)
  .use(resourcesToBackend((lng: string, ns: string) => import(`../locales/${lng}/${ns}.json`)))
  .use(initReactI18next)
  .init({
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: 'fieldhouse.lang',
      caches: ['localStorage'],
    },
    react: { useSuspense: true },
  });

i18n.on('languageChanged', (lng) =>
  document.documentElement.setAttribute('lang', i18n.resolvedLanguage ?? lng.split('-')[0] ?? 'en'),
);

/** Switches the console's language and remembers the choice in this browser. */
export const setLanguage = (lng: Language) => i18n.changeLanguage(lng);

export default i18n;
