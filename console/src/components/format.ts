import { useTranslation } from 'react-i18next';

/**
 * Formats ISO instants for the user's language and time zone (`Intl.DateTimeFormat`, medium
 * date and short time), or `fallback` for null (e.g. "never").
 */
export function useFormatInstant() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (iso: string | null | undefined, fallback = '') => (iso ? format.format(new Date(iso)) : fallback);
}
