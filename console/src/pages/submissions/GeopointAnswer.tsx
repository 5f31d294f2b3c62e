import { useTranslation } from 'react-i18next';
import { geopointText, type GeopointValue } from './values.ts';

/** A geopoint answer: its coordinates and precision as text. */
export function GeopointAnswer({ value }: { value: GeopointValue; label: string }) {
  const { i18n } = useTranslation();
  return <span>{geopointText(value, i18n.resolvedLanguage ?? 'en')}</span>;
}
