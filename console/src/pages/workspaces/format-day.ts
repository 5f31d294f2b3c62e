import { useTranslation } from 'react-i18next';

/** Formats an ISO instant as a day in the user's language and time zone (medium date), '' for null. */
export function useFormatDay() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium' });
  return (iso: string | null | undefined) => (iso ? format.format(new Date(iso)) : '');
}
